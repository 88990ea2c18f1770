#include "app/host_names.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/host_name.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <algorithm>
#include <cctype>

namespace voxl::app {

namespace {

void add(std::vector<std::string>& names, std::string name) {
  for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
  while (!name.empty() && name.back() == '.') name.pop_back();
  if (name.empty() || std::find(names.begin(), names.end(), name) != names.end()) return;
  names.push_back(std::move(name));
}

}  // namespace

std::vector<std::string> machine_host_names() {
  std::vector<std::string> names;
  namespace ip = boost::asio::ip;
  boost::system::error_code ec;
  const std::string host = ip::host_name(ec);
  if (ec || host.empty()) return names;
  add(names, host);
  // The canonical names the resolver knows it by (getaddrinfo's
  // AI_CANONNAME): an entry's host_name() is the canonical name when given.
  boost::asio::io_context io;
  ip::tcp::resolver resolver(io);
  const auto found = resolver.resolve(host, "", ip::resolver_base::canonical_name, ec);
  if (!ec)
    for (const auto& entry : found) add(names, entry.host_name());
  return names;
}

}  // namespace voxl::app
