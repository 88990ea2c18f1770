// What agents send the accessibility endpoints: GET /a11y's query (and
// the same as the MCP tool's JSON), the bodies of POST /a11y/find and
// /a11y/act, and the element ids in them
// (platform/atspi/atspi_ref.h). The first byte picks the parser; the rest
// is its input. Whatever comes in, the parsers give a request within the
// limits or an error naming a field, and an id that parses names an object
// on the bus that gives the same id back.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "endpoints/a11y_request.h"
#include "endpoints/a11y_view.h"
#include "fuzz_check.h"
#include "net/endpoint.h"
#include "platform/atspi/atspi_ref.h"

namespace VOXL_TEST_FILE {

using namespace voxl::endpoints;

void check_tree(const A11yTreeRequest& t) {
  FUZZ_CHECK(t.max_depth >= 0 && t.max_depth <= kA11yMaxDepth);
  FUZZ_CHECK(t.max_nodes >= 1 && t.max_nodes <= kA11yMaxNodes);
  FUZZ_CHECK(t.timeout.count() >= 1 && t.timeout <= kA11yMaxTimeout);
  FUZZ_CHECK(t.scope.kind != voxl::platform::A11yScope::Kind::kNode || !t.scope.ref.empty());
}

void check_error(const ActionError& e) {
  FUZZ_CHECK(!e.message.empty());
  voxl::fuzz::parse_json_or_abort(voxl::net::json_error(400, e.parameter, e.message).body);
}

}  // namespace

VOXL_FUZZ_TARGET(a11y_request) {
  if (size == 0) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 5) {
    case 0: {
      voxl::net::ParamError e;
      const auto q = voxl::net::Query::parse(input, e);
      if (!q) return 0;
      A11yTreeRequest t;
      if (parse_a11y_query(*q, t, e)) check_tree(t);
      else voxl::fuzz::parse_json_or_abort(voxl::net::json_error(400, e.parameter, e.message).body);
      return 0;
    }
    case 1: {
      ActionError e;
      const auto f = parse_a11y_find(input, e);
      if (!f) return check_error(e), 0;
      check_tree(f->tree);
      FUZZ_CHECK(f->max_results >= 1 && f->max_results <= 1000);
      FUZZ_CHECK(f->role || f->name || f->text || f->states != 0);
      // A search over a small made-up tree finds within the limit, and
      // every answer's JSON is valid.
      voxl::platform::A11ySnapshot s;
      for (int i = 0; i < 4; ++i) {
        voxl::platform::A11yNode n;
        n.ref = "1.2/" + std::to_string(i);
        n.parent = i - 1;
        n.role = i % 2 ? "push button" : "text";
        n.name = f->name.value_or("x");
        n.value = f->text;
        n.states = f->states;
        n.bounds = voxl::Rect{i * 10 - 5, i * 7, 20, 10};
        s.nodes.push_back(n);
      }
      const A11yView view{{{3, 4}, {64, 48}}, Scaling::fit({64, 48}, f->tree.scale)};
      const auto found = find_nodes(s, *f);
      FUZZ_CHECK(found.size() <= size_t(f->max_results));
      for (size_t i : found) voxl::fuzz::parse_json_or_abort(node_json(s, i, view, false).dump());
      voxl::fuzz::parse_json_or_abort(snapshot_json(s, view).dump());
      return 0;
    }
    case 2: {
      ActionError e;
      const auto a = parse_a11y_act(input, e);
      if (!a) return check_error(e), 0;
      FUZZ_CHECK(!a->id.empty());
      FUZZ_CHECK(a->text.size() <= kA11yMaxText);
      FUZZ_CHECK(a->action == voxl::platform::A11yAction::kSetText || a->text.empty());
      return 0;
    }
    case 3: {
      ActionError e;
      const auto t = parse_a11y_tree(input, e);
      if (!t) return check_error(e), 0;
      check_tree(*t);
      return 0;
    }
    default: {
      const auto o = voxl::platform::atspi::object_of(std::string(input));
      if (!o) return 0;
      FUZZ_CHECK(o->name.size() > 1 && o->name[0] == ':');
      FUZZ_CHECK(o->path.starts_with("/"));
      FUZZ_CHECK(voxl::platform::atspi::ref_of(*o) == input);
      return 0;
    }
  }
}
