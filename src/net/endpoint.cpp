#include "net/endpoint.h"

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "base/json_text.h"

namespace voxl::net {

OwnedFd::~OwnedFd() {
  if (fd_ >= 0) ::close(fd_);
}

OwnedFd& OwnedFd::operator=(OwnedFd&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(o.fd_, -1);
  }
  return *this;
}

EndpointReply json_error(int status, const std::string& parameter, const std::string& message) {
  nlohmann::json j{{"error", message}};
  if (!parameter.empty()) j["parameter"] = parameter;
  EndpointReply r;
  r.status = status;
  r.body = json_text(j) + "\n";
  return r;
}

}  // namespace voxl::net
