#include "http_client.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <cctype>
#include <optional>
#include <stdexcept>

namespace voxl::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

std::string HttpAnswer::header(const std::string& lower_case_name) const {
  const auto it = headers.find(lower_case_name);
  return it == headers.end() ? std::string() : it->second;
}

HttpAnswer http_request(uint16_t port, const HttpRequest& request, std::chrono::milliseconds limit) {
  return http_request(port, request, std::string(), limit);
}

HttpAnswer http_request(uint16_t port, const HttpRequest& request, const std::string& body,
                        std::chrono::milliseconds limit) {
  asio::io_context io{1};
  beast::tcp_stream stream(io);
  http::request<http::string_body> req{http::string_to_verb(request.method), request.target, 11};
  const auto has = [&request](const std::string& wanted) {
    return std::any_of(request.headers.begin(), request.headers.end(), [&wanted](const auto& h) {
      std::string name = h.first;
      for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
      return name == wanted;
    });
  };
  if (!has("host")) req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  for (const auto& [name, value] : request.headers) req.set(name, value);
  req.body() = body;
  req.prepare_payload();

  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(1ull << 30);  // downloads of a few hundred MB
  // The answer to a HEAD has the headers of a GET and no body to wait for.
  if (request.method == "HEAD") parser.skip(true);
  std::string failure;
  // The stream's timer covers every step: a server that never answers
  // fails the request with beast::error::timeout.
  stream.expires_after(limit);
  const tcp::endpoint server(asio::ip::make_address("127.0.0.1"), port);
  stream.async_connect(server, [&](beast::error_code ec) {
    if (ec) {
      failure = "connect: " + ec.message();
      return;
    }
    http::async_write(stream, req, [&](beast::error_code wec, size_t) {
      if (wec) {
        failure = "write: " + wec.message();
        return;
      }
      http::async_read(stream, buffer, parser, [&](beast::error_code rec, size_t) {
        if (rec) failure = "read: " + rec.message();
      });
    });
  });
  io.run();
  if (!failure.empty())
    throw std::runtime_error(request.method + " " + request.target + " failed: " + failure);

  http::response<http::string_body> res = parser.release();
  HttpAnswer answer;
  answer.status = int(res.result_int());
  for (const auto& field : res) {
    std::string name(field.name_string());
    for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
    answer.headers[name] = std::string(field.value());
  }
  answer.body = std::move(res.body());
  return answer;
}

std::string basic_authorization(const std::string& user, const std::string& password) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::string in = user + ":" + password;
  std::string out;
  for (size_t i = 0; i < in.size(); i += 3) {
    uint32_t n = uint32_t(uint8_t(in[i])) << 16;
    if (i + 1 < in.size()) n |= uint32_t(uint8_t(in[i + 1])) << 8;
    if (i + 2 < in.size()) n |= uint32_t(uint8_t(in[i + 2]));
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += i + 2 < in.size() ? kAlphabet[n & 63] : '=';
  }
  return "Basic " + out;
}

}  // namespace voxl::testing
