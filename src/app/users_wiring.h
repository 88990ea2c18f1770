// The users file's part of the daemon (--users-file): the users read at
// start (a mistake stops voxl before it serves), the sign-ins checked
// against them (net/sign_ins.h), and the file read again on SIGHUP and when
// it changes (platform/file_watch.h). A reading that fails keeps the users
// before it and says why in the log; one that succeeds says how many users
// there are now, and the verdicts kept for the old ones are forgotten.
//
// Threads: made, used and destroyed on the main thread while the loop
// runs there; the watch posts to the loop. Ownership: owns the SignIns the
// server points to; made before the server, destroyed after it.
#pragma once

#include <boost/asio/io_context.hpp>

#include <memory>
#include <string>

#include "app/config.h"
#include "base/audit_sink.h"
#include "base/logging.h"

namespace voxl::net {
class SignIns;
}
namespace voxl::platform {
class FileWatch;
}

namespace voxl::app {

class UsersWiring {
 public:
  // Throws std::runtime_error with the reason the users file cannot be used.
  // `audit` hears of sign-ins checked and of readings of the file.
  UsersWiring(const Config& config, boost::asio::io_context& io, Logger log, AuditSink audit = {});
  ~UsersWiring();
  UsersWiring(const UsersWiring&) = delete;
  UsersWiring& operator=(const UsersWiring&) = delete;

  bool enabled() const { return sign_ins_ != nullptr; }
  net::SignIns* sign_ins() { return sign_ins_.get(); }
  // Reads the file again (`why`: "SIGHUP", "it changed"). Loop thread.
  void reload(const std::string& why);

 private:
  const Config& config_;
  Logger log_;
  AuditSink audit_;
  std::string last_text_error_;  // the last failed reading's error, said once
  std::unique_ptr<net::SignIns> sign_ins_;
  std::unique_ptr<platform::FileWatch> watch_;  // last: stopped first
};

}  // namespace voxl::app
