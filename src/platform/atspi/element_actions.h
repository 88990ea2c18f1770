// The things POST /a11y/act does to one element, asked of its application
// through AT-SPI: press, focus, set its text, scroll it into view, select
// it. Each says what it did, or why nothing was done; where the toolkit
// cannot do it on request, the nearest way it can (a click at the centre,
// typing, the focus, the element's row) and says which.
//
// Threads: the thread that owns the bus connection. Throw
// std::runtime_error when the connection fails.
#pragma once

#include <string>

#include <systemd/sd-bus.h>

#include "platform/accessibility.h"
#include "platform/atspi/call_batch.h"

namespace voxl::platform::atspi {

// Its accessible action that presses ("click", "press", "activate"...),
// else where its centre is, for the caller to click there.
A11yActed press_element(sd_bus* bus, const BusObject& o, A11yDeadline deadline);
A11yActed focus_element(sd_bus* bus, const BusObject& o, A11yDeadline deadline);
// Its whole text; an element that takes none directly (Chromium's fields)
// is typed into (type_into_element).
A11yActed set_element_text(sd_bus* bus, const BusObject& o, const std::string& text, A11yDeadline deadline);
// Focused, for the caller to select what it holds and type the text
// (A11yActed::type_instead); `why` says why it is typed.
A11yActed type_into_element(sd_bus* bus, const BusObject& o, A11yDeadline deadline, const std::string& why);
// Component.ScrollTo; where the application does not scroll on request
// (GTK 3), the focus given to it or to what holds it, which toolkits
// scroll into view.
A11yActed scroll_element_into_view(sd_bus* bus, const BusObject& o, A11yDeadline deadline);
// Selected in its parent (a list, a tab bar, a menu); an element whose
// parent takes no selection (the label in a list's row) lifts to what
// holds it: the row is selected.
A11yActed select_element(sd_bus* bus, const BusObject& o, A11yDeadline deadline);

}  // namespace voxl::platform::atspi
