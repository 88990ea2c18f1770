// The server's TLS certificate chain and key, loaded from PEM files into an
// OpenSSL context (TLS 1.2 and later), for the server and for
// --check-config. Internal to src/net except check_tls_files (server.h).
// Any thread; the context is the caller's.
#pragma once

#include <string>

#include <boost/asio/ssl/context.hpp>

namespace voxl::net {

// Loads both files; OpenSSL checks that the key belongs to the certificate.
// Throws std::runtime_error naming the flag at fault (--https-cert,
// --https-key).
void load_tls(boost::asio::ssl::context& tls, const std::string& cert_file, const std::string& key_file);

}  // namespace voxl::net
