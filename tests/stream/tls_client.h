// A bare TLS client (OpenSSL over a blocking socket) for the hang-up tests:
// it sends what it is told, says close_notify when told, and checks no
// certificate (the server's is self-made). Plus the self-made certificate.
//
// Threads: one owner.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;

namespace voxl::testing {

// Writes a self-signed certificate and its key for CN=localhost into
// `dir` (cert.pem, key.pem) with the openssl command. Throws
// std::runtime_error when that fails.
void make_self_signed_cert(const std::string& dir);

class TlsClient {
 public:
  // Connects to 127.0.0.1:`port` and completes the handshake. Throws
  // std::runtime_error when either fails.
  explicit TlsClient(uint16_t port);
  ~TlsClient();
  TlsClient(const TlsClient&) = delete;
  TlsClient& operator=(const TlsClient&) = delete;

  bool write(const std::string& bytes);
  // Reads until `limit` passes or the peer ends the stream.
  std::string read_for(std::chrono::milliseconds limit);
  void close_notify();  // says goodbye in TLS; the socket stays open
  void close();         // drops the socket

 private:
  int fd_ = -1;
  SSL_CTX* ctx_ = nullptr;
  SSL* ssl_ = nullptr;
};

}  // namespace voxl::testing
