#include "endpoints/computer_action.h"

#include <nlohmann/json.hpp>

#include "base/json_depth.h"
#include "endpoints/computer_action_parser.h"

namespace voxl::endpoints {

namespace {

using json = nlohmann::json;

// Deeper JSON is refused before it is parsed (an action is 3 levels deep).
constexpr size_t kMaxDepth = 16;

}  // namespace

std::optional<ComputerAction> parse_computer_action(std::string_view body, Size picture, double px_per_notch,
                                                    ActionError& error) {
  ComputerActionParser p{picture, px_per_notch > 0 ? px_per_notch : 1.0, error};
  if (!json_depth_within(body, kMaxDepth)) return p.fail("body", "is nested too deeply"), std::nullopt;
  json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded()) return p.fail("body", "is not valid JSON"), std::nullopt;
  if (!doc.is_object())
    return p.fail("body", "must be one action object: Anthropic's {\"action\": ...} or OpenAI's {\"type\": ...}"),
           std::nullopt;
  // An OpenAI computer_call item as the Responses API hands it out: its
  // action is what to do; its ids and safety checks are the caller's.
  if (doc.contains("type") && doc["type"] == "computer_call") {
    if (!doc.contains("action") || !doc["action"].is_object())
      return p.fail("action", "a computer_call needs its action object"), std::nullopt;
    json inner = std::move(doc["action"]);
    doc = std::move(inner);
  }
  if (picture.empty()) return p.fail("body", "the picture's size is not known yet"), std::nullopt;
  ComputerAction out;
  const bool has_action = doc.contains("action"), has_type = doc.contains("type");
  if (has_action && has_type)
    return p.fail("type", "cannot be given with action: Anthropic's schema names the action in \"action\", OpenAI's in "
                          "\"type\""),
           std::nullopt;
  if (has_action) {
    if (!doc["action"].is_string()) return p.fail("action", "must be the action's name"), std::nullopt;
    out.name = doc["action"].get<std::string>();
    if (!p.anthropic(doc, out)) return std::nullopt;
    return out;
  }
  if (has_type) {
    if (!doc["type"].is_string()) return p.fail("type", "must be the action's name"), std::nullopt;
    out.name = doc["type"].get<std::string>();
    if (!p.openai(doc, out)) return std::nullopt;
    return out;
  }
  return p.fail("action", "is required: Anthropic's {\"action\": \"left_click\", ...} or OpenAI's {\"type\": \"click\", "
                          "...}"),
         std::nullopt;
}

}  // namespace voxl::endpoints
