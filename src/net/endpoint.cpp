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

std::optional<std::string_view> EndpointRequest::header(std::string_view name) const {
  for (const auto& [n, v] : headers)
    if (n == name) return std::string_view(v);
  return std::nullopt;
}

std::string view_only_refusal(std::string_view user, std::string_view what) {
  if (user.empty()) return "view-only credentials cannot " + std::string(what);
  return std::string(user) + " cannot " + std::string(what) + ": the users file does not give them the control right";
}

std::string EndpointRequest::cannot(std::string_view what) const { return view_only_refusal(user, what); }

std::optional<Query> known_query(const EndpointRequest& req, const std::vector<std::string>& known, ReplyFn& reply) {
  ParamError error;
  auto q = Query::parse(req.query, error);
  if (!q) {
    reply(json_error(400, error.parameter, error.parameter + " " + error.message));
    return std::nullopt;
  }
  if (auto u = q->unknown(known)) {
    reply(json_error(400, *u, *u + " is not a parameter of " + req.path));
    return std::nullopt;
  }
  return q;
}

}  // namespace voxl::net
