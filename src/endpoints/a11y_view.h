// The accessibility tree as agents read it: JSON whose bounds are in the
// picture the agent sees (the screenshot's coordinates, scaled as it asked),
// and the search of POST /a11y/find. Pure functions; any thread.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "endpoints/a11y_request.h"
#include "endpoints/picture_scale.h"
#include "input/picture_mapping.h"
#include "platform/accessibility.h"

namespace voxl::endpoints {

// Where the picture lies on the desktop and how the agent sees it.
struct A11yView {
  input::PictureMapping picture;
  Scaling scaling;  // the picture <-> the agent's (scaled) picture
};

// The space every position of the answer is in (picture_scale.h's
// coordinate_space_json).
nlohmann::json coordinate_space_json(const A11yView& view);

// One node: {"id", "role", "name", "description", "value", "secret",
// "states", "bounds" (clipped to the picture, in the agent's picture;
// absent when it is off the picture or has none), "in_picture",
// "actions", "application"}; with `children`, its listed children nested.
nlohmann::json node_json(const platform::A11ySnapshot& s, size_t index, const A11yView& view, bool children);

// The whole snapshot: {"tree": [roots...], "nodes", "cut"}.
nlohmann::json snapshot_json(const platform::A11ySnapshot& s, const A11yView& view);

// The nodes that match, in tree order, at most max_results.
std::vector<size_t> find_nodes(const platform::A11ySnapshot& s, const A11yFindRequest& find);

}  // namespace voxl::endpoints
