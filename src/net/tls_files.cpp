#include "net/tls_files.h"

#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>

#include "net/server.h"

namespace voxl::net {

namespace {

namespace ssl = boost::asio::ssl;

std::string read_file(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(std::string("cannot read the ") + what + " " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

void load_tls(ssl::context& tls, const std::string& cert_file, const std::string& key_file) {
  boost::system::error_code ec;
  tls.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                  ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
  const std::string cert = read_file(cert_file, "certificate");
  const std::string key = read_file(key_file, "private key");
  tls.use_certificate_chain(boost::asio::buffer(cert), ec);
  if (ec) throw std::runtime_error("--https-cert " + cert_file + ": " + ec.message());
  tls.use_private_key(boost::asio::buffer(key), ssl::context::pem, ec);
  if (ec) throw std::runtime_error("--https-key " + key_file + ": " + ec.message());
}

std::optional<std::string> check_tls_files(const std::string& cert_file, const std::string& key_file) {
  try {
    ssl::context tls(ssl::context::tls_server);
    load_tls(tls, cert_file, key_file);
  } catch (const std::exception& e) {
    return e.what();
  }
  return std::nullopt;
}

}  // namespace voxl::net
