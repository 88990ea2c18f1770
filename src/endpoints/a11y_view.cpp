#include "endpoints/a11y_view.h"

#include <algorithm>
#include <string_view>

namespace voxl::endpoints {
namespace {

using json = nlohmann::json;
using platform::A11yNode;
using platform::A11ySnapshot;

json states_json(uint32_t states) {
  json out = json::array();
  for (size_t i = 0; i < std::size(platform::kA11yStateNames); ++i)
    if (states & (1u << i)) out.push_back(platform::kA11yStateNames[i]);
  return out;
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

// `needle` in `hay`: equal when exact, else contained ignoring ASCII case.
bool matches(std::string_view hay, std::string_view needle, bool exact) {
  if (exact) return hay == needle;
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                     [](char a, char b) { return lower(a) == lower(b); }) != hay.end();
}

// The children of every node, in order.
std::vector<std::vector<size_t>> children_of(const A11ySnapshot& s) {
  std::vector<std::vector<size_t>> out(s.nodes.size());
  for (size_t i = 0; i < s.nodes.size(); ++i)
    if (const int p = s.nodes[i].parent; p >= 0 && size_t(p) < i) out[size_t(p)].push_back(i);
  return out;
}

json node_with(const A11ySnapshot& s, size_t i, const A11yView& view, const std::vector<std::vector<size_t>>* kids) {
  const A11yNode& n = s.nodes[i];
  json out = {{"id", n.ref}, {"role", n.role}, {"name", n.name}};
  if (!n.description.empty()) out["description"] = n.description;
  if (n.secret) out["secret"] = true;
  else if (n.value) out["value"] = *n.value;
  out["states"] = states_json(n.states);
  if (n.bounds) {
    const Rect area = Rect::from_size(view.picture.area);
    const Rect in_picture = n.bounds->translated(-view.picture.origin.x, -view.picture.origin.y);
    const Rect clipped = in_picture.intersect(area);
    out["in_picture"] = !clipped.empty();
    if (!clipped.empty()) {
      const Rect r = view.scaling.to_scaled(clipped);
      out["bounds"] = {{"x", r.x}, {"y", r.y}, {"width", r.width}, {"height", r.height}};
      if (!(clipped == in_picture)) out["clipped"] = true;
    }
  }
  if (!n.actions.empty()) out["actions"] = n.actions;
  if (n.parent < 0 && !n.application.empty()) out["application"] = n.application;
  if (kids) {
    const auto& mine = (*kids)[i];
    if (!mine.empty()) {
      json list = json::array();
      for (size_t c : mine) list.push_back(node_with(s, c, view, kids));
      out["children"] = std::move(list);
    }
    if (n.child_count > int(mine.size())) out["children_not_listed"] = n.child_count - int(mine.size());
  } else if (n.child_count > 0) {
    out["child_count"] = n.child_count;
  }
  return out;
}

}  // namespace

json coordinate_space_json(const A11yView& view) {
  return endpoints::coordinate_space_json(view.scaling, view.picture.origin);
}

json node_json(const A11ySnapshot& s, size_t index, const A11yView& view, bool children) {
  if (!children) return node_with(s, index, view, nullptr);
  const auto kids = children_of(s);
  return node_with(s, index, view, &kids);
}

json snapshot_json(const A11ySnapshot& s, const A11yView& view) {
  const auto kids = children_of(s);
  json tree = json::array();
  for (size_t i = 0; i < s.nodes.size(); ++i)
    if (s.nodes[i].parent < 0) tree.push_back(node_with(s, i, view, &kids));
  json out = {{"nodes", s.nodes.size()}, {"tree", std::move(tree)}};
  if (s.depth_cut || s.count_cut || s.time_cut) {
    json cut = json::object();
    if (s.depth_cut) cut["depth"] = "deeper elements were left out (max_depth)";
    if (s.count_cut) cut["count"] = "more elements were left out (max_nodes)";
    if (s.time_cut) cut["time"] = "the applications did not answer everything in time (timeout)";
    if (!s.unanswered.empty()) cut["unanswered"] = s.unanswered;
    out["cut"] = std::move(cut);
  }
  return out;
}

std::vector<size_t> find_nodes(const A11ySnapshot& s, const A11yFindRequest& f) {
  std::vector<size_t> out;
  for (size_t i = 0; i < s.nodes.size() && out.size() < size_t(f.max_results); ++i) {
    const A11yNode& n = s.nodes[i];
    if (f.role && n.role != *f.role) continue;
    if (f.name && !matches(n.name, *f.name, f.exact)) continue;
    if (f.text && !matches(n.name, *f.text, f.exact) && !matches(n.description, *f.text, f.exact) &&
        !(n.value && !n.secret && matches(*n.value, *f.text, f.exact)))
      continue;
    if ((n.states & f.states) != f.states) continue;
    out.push_back(i);
  }
  return out;
}

}  // namespace voxl::endpoints
