// File transfer as the flags set it (--file-transfers, --files-root,
// --upload-dir, --max-upload-mb): the Files panel's endpoints, or none when
// both directions are off or the root cannot be opened (said in the log).
//
// Threads: the loop thread. Lifetime: made before the server that serves
// endpoints(), destroyed after it (it joins its disk thread then).
#pragma once

#include <memory>

#include "app/config.h"
#include "base/logging.h"
#include "net/endpoint.h"

namespace boost::asio {
class io_context;
}
namespace voxl::files {
class FilesService;
}

namespace voxl::app {

class FilesWiring {
 public:
  FilesWiring(const Config& config, boost::asio::io_context& io, const Logger& log);
  ~FilesWiring();
  FilesWiring(const FilesWiring&) = delete;
  FilesWiring& operator=(const FilesWiring&) = delete;

  // Whether viewers are offered the Files panel (hello's "files").
  bool offered() const { return service_ != nullptr; }
  // The /files endpoints; empty when not offered. They refer to this object.
  net::EndpointTable endpoints();

 private:
  std::unique_ptr<files::FilesService> service_;
};

}  // namespace voxl::app
