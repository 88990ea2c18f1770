#include "platform/atspi/app_cache.h"

#include <algorithm>

namespace voxl::platform::atspi {
namespace {

bool read_ref(sd_bus_message* m, std::string& path) {
  const char *name = nullptr, *p = nullptr;
  if (sd_bus_message_read(m, "(so)", &name, &p) <= 0 || !p) return false;
  path = p;
  return true;
}

}  // namespace

bool read_app_cache(sd_bus_message* m, size_t max_items, AppCache& out) {
  if (sd_bus_message_enter_container(m, 'a', "((so)(so)(so)iiassusau)") <= 0) return false;
  while (out.size() < max_items && sd_bus_message_enter_container(m, 'r', "(so)(so)(so)iiassusau") > 0) {
    std::string self, app, parent;
    CachedElement e;
    int32_t index = -1, count = -1;
    char** interfaces = nullptr;
    const char *name = nullptr, *description = nullptr;
    uint32_t role = 0;
    const void* words = nullptr;
    size_t bytes = 0;
    if (!read_ref(m, self) || !read_ref(m, app) || !read_ref(m, parent) ||
        sd_bus_message_read(m, "ii", &index, &count) < 0 || sd_bus_message_read_strv(m, &interfaces) < 0 ||
        sd_bus_message_read(m, "sus", &name, &role, &description) < 0 ||
        sd_bus_message_read_array(m, 'u', &words, &bytes) < 0 || sd_bus_message_exit_container(m) < 0) {
      if (interfaces)
        for (char** s = interfaces; *s; ++s) std::free(*s);
      std::free(interfaces);
      return false;
    }
    if (interfaces) {
      for (char** s = interfaces; *s; ++s) {
        e.interfaces.emplace_back(*s);
        std::free(*s);
      }
      std::free(interfaces);
    }
    e.parent = parent == "/org/a11y/atspi/null" ? "" : parent;
    e.index = index;
    e.child_count = count;
    e.name = name ? name : "";
    e.role = role;
    e.description = description ? description : "";
    for (size_t i = 0; i < std::min<size_t>(2, bytes / sizeof(uint32_t)); ++i)
      e.states[i] = static_cast<const uint32_t*>(words)[i];
    out[self] = std::move(e);
  }
  // The children of each, in their order.
  std::vector<std::pair<int, std::string>> order;
  std::unordered_map<std::string, std::vector<std::pair<int, std::string>>> kids;
  for (const auto& [path, e] : out)
    if (!e.parent.empty() && e.index >= 0) kids[e.parent].emplace_back(e.index, path);
  for (auto& [parent, list] : kids) {
    const auto it = out.find(parent);
    if (it == out.end()) continue;
    std::sort(list.begin(), list.end());
    for (auto& [index, path] : list) it->second.children.push_back(std::move(path));
  }
  return true;
}

void ask_app_facts(CallBatch& batch, const std::vector<BusObject>& apps, size_t max_items, DirectBuses& direct,
                   AppFacts& out) {
  for (const BusObject& app : apps) {
    batch.call(
        app, "org.freedesktop.DBus.Properties", "Get",
        [&out, name = app.name](sd_bus_message* reply, const sd_bus_error*) {
          const char* toolkit = nullptr;
          if (reply && sd_bus_message_read(reply, "v", "s", &toolkit) >= 0 && toolkit)
            out.toolkits[name] = std::string(toolkit).substr(0, 64);
        },
        [](sd_bus_message* m) { return sd_bus_message_append(m, "ss", "org.a11y.atspi.Application", "ToolkitName"); });
    // atk-bridge keeps its cache once it has a client; asking for the
    // application's bus address makes us one.
    batch.call(app, "org.a11y.atspi.Application", "GetApplicationBusAddress",
               [&batch, &out, &direct, app, max_items](sd_bus_message* reply, const sd_bus_error*) {
                 const char* address = nullptr;
                 if (reply && sd_bus_message_read(reply, "s", &address) >= 0 && address && *address)
                   direct.open(app.name, address);
                 batch.call(BusObject{app.name, "/org/a11y/atspi/cache"}, "org.a11y.atspi.Cache", "GetItems",
                            [&out, name = app.name, max_items](sd_bus_message* m, const sd_bus_error*) {
                              AppCache cache;
                              if (m && read_app_cache(m, max_items, cache)) out.caches[name] = std::move(cache);
                            });
               });
  }
}

}  // namespace voxl::platform::atspi
