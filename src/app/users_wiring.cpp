#include "app/users_wiring.h"

#include <boost/asio/post.hpp>

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <utility>

#include "app/users_file_load.h"
#include "net/rights.h"
#include "net/sign_ins.h"
#include "platform/file_watch.h"

namespace voxl::app {

UsersWiring::UsersWiring(const Config& config, boost::asio::io_context& io, Logger log, AuditSink audit)
    : config_(config), log_(std::move(log)), audit_(std::move(audit)) {
  if (config.users_file.empty()) return;
  LoadedUsers loaded = load_users_file(config);
  if (!loaded.users) throw std::runtime_error(loaded.error);
  const size_t count = loaded.users->all().size();
  sign_ins_ = std::make_unique<net::SignIns>(
      std::move(loaded.users), [&io](std::function<void()> f) { boost::asio::post(io, std::move(f)); });
  log_->info("users: {} from {} (read again on SIGHUP and when it changes)", count, config.users_file);
  if (audit_)
    // A refusal is recorded with the request it answers (the server's
    // "sign_in_failed"); a grant once, when the password is checked.
    sign_ins_->on_checked([audit = audit_](const net::SignIns::Answer& a, const std::string& name,
                                           const std::string& address) {
      if (a.verdict == net::SignIns::Verdict::kGranted)
        audit("sign_in", nlohmann::json{{"user", name}, {"address", address}, {"rights", net::rights_text(a.rights)}});
    });
  try {
    watch_ = std::make_unique<platform::FileWatch>(config.users_file, [this, &io] {
      boost::asio::post(io, [this] { reload("it changed"); });
    });
  } catch (const std::exception& e) {
    log_->warn("--users-file: {}; it is read again on SIGHUP only", e.what());
  }
}

UsersWiring::~UsersWiring() = default;

void UsersWiring::reload(const std::string& why) {
  if (!sign_ins_) return;
  LoadedUsers loaded = load_users_file(config_);
  if (!loaded.users) {
    // A file half written by an editor fails and succeeds a moment later:
    // one line per distinct failure.
    if (loaded.error != last_text_error_) {
      log_->error("{}; the users read before stay ({})", loaded.error, why);
      if (audit_) audit_("users_refused", nlohmann::json{{"why", why}, {"error", loaded.error}});
    }
    last_text_error_ = loaded.error;
    return;
  }
  last_text_error_.clear();
  const size_t count = loaded.users->all().size();
  sign_ins_->set_users(std::move(loaded.users));
  log_->info("users: {} from {}, read again ({})", count, config_.users_file, why);
  if (audit_) audit_("users_read", nlohmann::json{{"why", why}, {"users", count}});
}

}  // namespace voxl::app
