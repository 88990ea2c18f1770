// One HTTP/1.1 request over a real socket, with a deadline, for tests of
// voxl's HTTP side. Beast stays inside http_client.cpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace voxl::testing {

struct HttpAnswer {
  int status = 0;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;

  // The header's value; empty when absent.
  std::string header(const std::string& lower_case_name) const;
};

struct HttpRequest {
  std::string method = "GET";
  std::string target = "/";
  // Added as given; Host defaults to 127.0.0.1:<port> unless listed here.
  // Nothing else is added: like curl, a request carries no Origin and no
  // Content-Type unless one is listed.
  std::vector<std::pair<std::string, std::string>> headers;
};

// Sends `request` to 127.0.0.1:`port` and reads the answer. Throws
// std::runtime_error when that fails or takes longer than `limit`.
HttpAnswer http_request(uint16_t port, const HttpRequest& request,
                        std::chrono::milliseconds limit = std::chrono::seconds(30));
// The same with a request body.
HttpAnswer http_request(uint16_t port, const HttpRequest& request, const std::string& body,
                        std::chrono::milliseconds limit = std::chrono::seconds(30));

// "Basic <base64 of user:password>".
std::string basic_authorization(const std::string& user, const std::string& password);

}  // namespace voxl::testing
