// voxl-wait-bench: how long /wait?change takes to answer after something is
// drawn. Each round asks for the current seq, sends
// /wait?change&since=<seq>, gives voxl a moment to register the waiter,
// fills a rectangle (timed from just before the request goes to the X
// server) and times the answer's arrival. Prints median, p90, p99, max.
//
//   voxl-wait-bench --display=:N --port=P [--rounds=200]
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>
#include <xcb/xcb.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "voxl-wait-bench: %s\n", why.c_str());
  std::exit(2);
}

int connect_to(int port) {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(uint16_t(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) die("cannot connect to voxl");
  const int one = 1;
  ::setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return s;
}

void send_get(int s, int port, const std::string& target) {
  const std::string req = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                          "\r\nConnection: close\r\n\r\n";
  if (::write(s, req.data(), req.size()) != ssize_t(req.size())) die("write failed");
}

// Reads until the server closes (Connection: close): the whole answer.
std::string read_all(int s) {
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(s, buf, sizeof buf)) > 0) out.append(buf, size_t(n));
  ::close(s);
  return out;
}

unsigned long long seq_of(const std::string& answer) {
  const size_t at = answer.find("\"seq\":");
  if (at == std::string::npos) die("no seq in: " + answer);
  return std::strtoull(answer.c_str() + at + 6, nullptr, 10);
}

double pct(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

}  // namespace

int main(int argc, char** argv) {
  std::string display;
  int port = 0, rounds = 200;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--display=", 0) == 0) display = a.substr(10);
    else if (a.rfind("--port=", 0) == 0) port = std::atoi(a.c_str() + 7);
    else if (a.rfind("--rounds=", 0) == 0) rounds = std::atoi(a.c_str() + 9);
    else die("unknown argument " + a);
  }
  if (port <= 0) die("--port is required");
  xcb_connection_t* c = xcb_connect(display.empty() ? nullptr : display.c_str(), nullptr);
  if (xcb_connection_has_error(c)) die("cannot open the display");
  xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
  const xcb_gcontext_t gc = xcb_generate_id(c);
  xcb_create_gc(c, gc, screen->root, 0, nullptr);

  std::vector<double> ms;
  int s = connect_to(port);
  send_get(s, port, "/wait?idle=0");
  unsigned long long seq = seq_of(read_all(s));
  for (int i = 0; i < rounds; ++i) {
    s = connect_to(port);
    send_get(s, port, "/wait?change&timeout=5000&since=" + std::to_string(seq));
    // Long enough for the waiter to be registered; pacing, not a measurement.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const uint32_t colour = uint32_t(i * 0x030507) & 0xffffff;
    xcb_change_gc(c, gc, XCB_GC_FOREGROUND, &colour);
    const xcb_rectangle_t r{int16_t(100 + i % 50), 100, 40, 40};
    const auto t0 = Clock::now();
    xcb_poly_fill_rectangle(c, screen->root, gc, 1, &r);
    xcb_flush(c);
    const std::string answer = read_all(s);
    const auto t1 = Clock::now();
    if (answer.find("\"changed\":true") == std::string::npos) die("no change seen: " + answer);
    seq = seq_of(answer);
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  xcb_disconnect(c);
  std::printf("wait reaction (draw -> answer), %d rounds: median %.3f ms, p90 %.3f ms, p99 %.3f ms, max %.3f ms\n",
              rounds, pct(ms, 0.5), pct(ms, 0.9), pct(ms, 0.99), pct(ms, 1.0));
  return 0;
}
