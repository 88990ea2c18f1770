#include "tls_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

#include "platform/child_process.h"

namespace voxl::testing {

void make_self_signed_cert(const std::string& dir) {
  platform::ChildOptions o;
  o.argv = {"openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-days", "1", "-subj", "/CN=localhost", "-keyout", dir + "/key.pem", "-out", dir + "/cert.pem"};
  platform::ChildProcess p(o);
  const pid_t pid = p.pid();
  if (!platform::wait_child_exit(pid, std::chrono::seconds(60))) throw std::runtime_error("openssl req did not finish");
  if (::access((dir + "/cert.pem").c_str(), R_OK) != 0 || ::access((dir + "/key.pem").c_str(), R_OK) != 0)
    throw std::runtime_error("openssl req wrote no certificate");
}

TlsClient::TlsClient(uint16_t port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd_ < 0 || ::connect(fd_, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0) {
    close();
    throw std::runtime_error("TLS client: cannot connect");
  }
  ctx_ = SSL_CTX_new(TLS_client_method());
  ssl_ = ctx_ ? SSL_new(ctx_) : nullptr;
  if (!ssl_ || SSL_set_fd(ssl_, fd_) != 1 || SSL_connect(ssl_) != 1) {
    char why[256] = "?";
    ERR_error_string_n(ERR_get_error(), why, sizeof why);
    close();
    throw std::runtime_error(std::string("TLS client: handshake failed: ") + why);
  }
}

TlsClient::~TlsClient() { close(); }

bool TlsClient::write(const std::string& bytes) {
  return ssl_ && SSL_write(ssl_, bytes.data(), int(bytes.size())) == int(bytes.size());
}

std::string TlsClient::read_for(std::chrono::milliseconds limit) {
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  char buf[16384];
  while (ssl_) {
    if (SSL_pending(ssl_) == 0) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      pollfd p{fd_, POLLIN, 0};
      if (left <= 0 || ::poll(&p, 1, int(left)) <= 0) break;
    }
    const int n = SSL_read(ssl_, buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, size_t(n));
  }
  return out;
}

void TlsClient::close_notify() {
  if (ssl_) SSL_shutdown(ssl_);
}

void TlsClient::close() {
  if (ssl_) SSL_free(ssl_);
  ssl_ = nullptr;
  if (ctx_) SSL_CTX_free(ctx_);
  ctx_ = nullptr;
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace voxl::testing
