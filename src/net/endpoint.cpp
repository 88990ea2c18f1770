#include "net/endpoint.h"

#include <nlohmann/json.hpp>

#include "base/json_text.h"

namespace voxl::net {

EndpointReply json_error(int status, const std::string& parameter, const std::string& message) {
  nlohmann::json j{{"error", message}};
  if (!parameter.empty()) j["parameter"] = parameter;
  EndpointReply r;
  r.status = status;
  r.body = json_text(j) + "\n";
  return r;
}

}  // namespace voxl::net
