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

}  // namespace voxl::endpoints
