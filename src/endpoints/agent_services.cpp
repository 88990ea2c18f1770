#include "endpoints/agent_services.h"

namespace voxl::endpoints {

input::PictureMapping picture_now(const AgentServices& s) {
  input::PictureMapping m = s.interaction ? s.interaction->picture() : input::PictureMapping{};
  input::InputInjector* injector = s.interaction ? s.interaction->injector() : nullptr;
  if (injector && (s.whole_screen || !m.known())) m.area = injector->desktop_size();
  return m;
}

std::optional<Point> pointer_in_picture(const AgentServices& s, const input::PictureMapping& picture) {
  input::InputInjector* injector = s.interaction ? s.interaction->injector() : nullptr;
  if (!injector) return std::nullopt;
  const std::optional<Point> p = injector->pointer_position();
  if (!p) return std::nullopt;
  return Point{p->x - picture.origin.x, p->y - picture.origin.y};
}

net::EndpointReply bad_parameter(const net::ParamError& e) {
  return net::json_error(400, e.parameter, e.parameter + " " + e.message);
}

std::optional<net::Query> endpoint_query(const net::EndpointRequest& req, const std::vector<std::string>& known,
                                    const net::ReplyFn& reply) {
  net::ParamError error;
  auto q = net::Query::parse(req.query, error);
  if (!q) return reply(bad_parameter(error)), std::nullopt;
  if (auto u = q->unknown(known)) {
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    reply(bad_parameter({*u, "is not a parameter of " + req.path + (list.empty() ? "" : " (known: " + list + ")")}));
    return std::nullopt;
  }
  return q;
}

}  // namespace voxl::endpoints
