#include "platform/atspi/atspi_vocabulary.h"

#include <array>

#include "platform/accessibility.h"

namespace voxl::platform::atspi {
namespace {

// AtspiRole in order (atspi-constants.h), named as atspi_role_get_name
// names them: the enum's nick with dashes as spaces.
constexpr const char* kRoles[] = {
    "invalid", "accelerator label", "alert", "animation", "arrow", "calendar", "canvas", "check box",
    "check menu item", "color chooser", "column header", "combo box", "date editor", "desktop icon",
    "desktop frame", "dial", "dialog", "directory pane", "drawing area", "file chooser", "filler",
    "focus traversable", "font chooser", "frame", "glass pane", "html container", "icon", "image",
    "internal frame", "label", "layered pane", "list", "list item", "menu", "menu bar", "menu item",
    "option pane", "page tab", "page tab list", "panel", "password text", "popup menu", "progress bar",
    "push button", "radio button", "radio menu item", "root pane", "row header", "scroll bar", "scroll pane",
    "separator", "slider", "spin button", "split pane", "status bar", "table", "table cell",
    "table column header", "table row header", "tearoff menu item", "terminal", "text", "toggle button",
    "tool bar", "tool tip", "tree", "tree table", "unknown", "viewport", "window", "extended", "header",
    "footer", "paragraph", "ruler", "application", "autocomplete", "editbar", "embedded", "entry", "chart",
    "caption", "document frame", "heading", "page", "section", "redundant object", "form", "link",
    "input method window", "table row", "tree item", "document spreadsheet", "document presentation",
    "document text", "document web", "document email", "comment", "list box", "grouping", "image map",
    "notification", "info bar", "level bar", "title bar", "block quote", "audio", "video", "definition",
    "article", "landmark", "log", "marquee", "math", "rating", "timer", "static", "math fraction",
    "math root", "subscript", "superscript", "description list", "description term", "description value",
    "footnote", "content deletion", "content insertion", "mark", "suggestion", "push button menu"};
static_assert(std::size(kRoles) == 130);

// AtspiStateType numbers.
constexpr uint32_t kChecked = 4, kEditable = 7, kEnabled = 8, kExpandable = 9, kExpanded = 10,
                   kFocusable = 11, kModal = 16, kMultiLine = 17, kPressed = 20, kSelectable = 22,
                   kSelected = 23, kSensitive = 24, kShowing = 25, kVisible = 30, kRequired = 33,
                   kInvalidEntry = 36, kCheckable = 41, kReadOnly = 43;

}  // namespace

std::string role_name(uint32_t role) { return role < std::size(kRoles) ? kRoles[role] : "unknown"; }

bool role_has_value(uint32_t role) {
  if (role >= std::size(kRoles)) return false;
  const std::string_view name = kRoles[role];
  return name == "slider" || name == "spin button" || name == "progress bar" || name == "level bar" ||
         name == "scroll bar" || name == "dial";
}

bool has_state(std::span<const uint32_t> words, uint32_t state) {
  return state / 32 < words.size() && (words[state / 32] >> (state % 32) & 1u) != 0;
}

uint32_t states_from_words(std::span<const uint32_t> words) {
  const auto on = [&](uint32_t s) { return has_state(words, s); };
  uint32_t out = 0;
  const std::array<std::pair<bool, uint32_t>, 17> pairs{{
      {on(kStateFocused), kA11yFocused},
      {on(kFocusable), kA11yFocusable},
      {on(kEnabled) && on(kSensitive), kA11yEnabled},
      {on(kChecked), kA11yChecked},
      {on(kCheckable), kA11yCheckable},
      {on(kSelected), kA11ySelected},
      {on(kSelectable), kA11ySelectable},
      {on(kEditable), kA11yEditable},
      {on(kShowing) && on(kVisible), kA11yShowing},
      {on(kStateActive), kA11yActive},
      {on(kExpanded), kA11yExpanded},
      {on(kExpandable), kA11yExpandable},
      {on(kPressed), kA11yPressed},
      {on(kModal), kA11yModal},
      {on(kMultiLine), kA11yMultiLine},
      {on(kReadOnly), kA11yReadOnly},
      {on(kRequired), kA11yRequired},
  }};
  for (const auto& [set, bit] : pairs)
    if (set) out |= bit;
  if (on(kInvalidEntry)) out |= kA11yInvalid;
  return out;
}

std::string without_object_characters(std::string_view text) {
  constexpr std::string_view kObject = "\xEF\xBF\xBC";
  std::string out;
  out.reserve(text.size());
  for (size_t at = 0; at < text.size();) {
    const size_t next = text.find(kObject, at);
    out.append(text.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
    if (next == std::string_view::npos) break;
    at = next + kObject.size();
  }
  return out;
}

}  // namespace voxl::platform::atspi
