// An application's own list of its accessible elements (AT-SPI's
// org.a11y.atspi.Cache.GetItems: each element's parent, place, child
// count, interfaces, name, role, description and states in one answer),
// which toolkits built on atk-bridge (GTK 3, Chromium) keep once a client
// has asked for their bus address. With it a tree is read with one
// question per application, plus the few each element still needs (its
// bounds, its actions, its text), instead of five or six per element.
//
// Threads: the thread that owns the connection (CallBatch).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemd/sd-bus.h>

#include "platform/atspi/call_batch.h"

namespace voxl::platform::atspi {

struct CachedElement {
  std::string parent;  // its parent's path on the same connection ("" when none)
  int index = -1;      // among its parent's children; -1: not known (transient)
  int child_count = -1;  // -1: not known (its children come and go)
  std::vector<std::string> interfaces;
  std::string name;
  uint32_t role = 0;
  std::string description;
  uint32_t states[2] = {0, 0};
  std::vector<std::string> children;  // the cached ones, in order
};

// One application's elements by object path.
using AppCache = std::unordered_map<std::string, CachedElement>;

// What is known of the applications before their trees are read, by
// connection name.
struct AppFacts {
  std::map<std::string, AppCache> caches;
  // Each one's toolkit (Application.ToolkitName: "GTK", "Chromium",
  // "Gecko", "Qt"), for what differs between them.
  std::map<std::string, std::string> toolkits;
};

// Reads GetItems' reply (AT-SPI 2.46's a((so)(so)(so)iiassusau)); false
// when it is not that (an older toolkit's layout: Qt's). Elements past
// `max_items` are left out.
bool read_app_cache(sd_bus_message* reply, size_t max_items, AppCache& out);

// Asks each application for its toolkit and its cache in `batch`, for the
// cache first its bus address, which makes atk-bridge start keeping one,
// and where `direct` opens a connection to it; what answers lands in `out`.
// Applications without a cache are left out of out.caches.
void ask_app_facts(CallBatch& batch, const std::vector<BusObject>& apps, size_t max_items, DirectBuses& direct,
                   AppFacts& out);

}  // namespace voxl::platform::atspi
