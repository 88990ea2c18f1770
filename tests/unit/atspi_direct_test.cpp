// Direct connections to applications (direct_buses.h) and the batch that
// uses them (call_batch.h), against two sd-bus servers of our own: one on a
// socket pair standing for the accessibility bus, one listening on a unix
// socket as atk-bridge does. A call to an application with a direct
// connection is answered there; when that connection hangs up, or the
// address is not a local socket's, the same calls are answered on the bus
// and nothing is lost.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "platform/atspi/call_batch.h"
#include "platform/atspi/direct_buses.h"

namespace voxl::platform::atspi {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;

TEST(DirectAddress, OnlyOneLocalSocketIsAccepted) {
  for (const char* good : {"unix:path=/run/user/1000/at-spi2-socket-42",
                           "unix:path=/tmp/s,guid=0123456789abcdef0123456789abcdef"})
    EXPECT_TRUE(local_socket_path(good)) << good;
  EXPECT_EQ(local_socket_path("unix:guid=1,path=/tmp/s"), "/tmp/s");
  for (const char* bad :
       {"", "unix:", "unix:path=", "unix:path=relative", "unixexec:path=/bin/sh", "tcp:host=127.0.0.1,port=1",
        "unix:path=/a;unix:path=/b", "unix:path=/a;tcp:host=x", "unix:path=/a,abstract=b", "unix:guid=1",
        "unix:path=/a,", "unix:,path=/a", "unix:tmpdir=/tmp", "unix:runtime=yes", "unix:path=/a,argv0=sh",
        "UNIX:path=/a", "x-machine-id:unix:path=/a", "unix:abstract=/tmp/dbus-x", "unix:path=/a%2fb",
        "unix:path=/a,path=/b"})
    EXPECT_FALSE(local_socket_path(bad)) << bad;
  EXPECT_FALSE(local_socket_path("unix:path=/" + std::string(5000, 'a')));
}

// One connection served on its own thread: the method org.voxl.Test.Who
// on /obj answers `who`, and after `answers` answers the connection is
// shut (-1: never). The thread ends when the connection does. Owns `fd`.
class PeerServer {
 public:
  PeerServer(int fd, std::string who, int answers = -1) : fd_(fd), who_(std::move(who)), left_(answers) {
    thread_ = std::thread([this] { serve(); });
  }
  ~PeerServer() {
    shutdown(fd_, SHUT_RDWR);
    thread_.join();
    close(fd_);
  }
  int answered() const { return answered_; }

 private:
  static int on_who(sd_bus_message* m, void* userdata, sd_bus_error*) {
    auto* self = static_cast<PeerServer*>(userdata);
    if (self->left_ == 0) {
      shutdown(self->fd_, SHUT_RDWR);
      return 0;
    }
    if (self->left_ > 0) --self->left_;
    ++self->answered_;
    return sd_bus_reply_method_return(m, "s", self->who_.c_str());
  }
  void serve() {
    static const sd_bus_vtable vtable[] = {SD_BUS_VTABLE_START(0),
                                           SD_BUS_METHOD("Who", "", "s", &PeerServer::on_who, 0),
                                           SD_BUS_VTABLE_END};
    sd_bus* bus = nullptr;
    sd_id128_t id;
    // sd-bus closes its own copy; fd_ stays ours to shut from outside.
    const int fd = dup(fd_);
    if (sd_bus_new(&bus) < 0 || sd_id128_randomize(&id) < 0 || sd_bus_set_fd(bus, fd, fd) < 0 ||
        sd_bus_set_server(bus, 1, id) < 0 ||
        sd_bus_add_object_vtable(bus, nullptr, "/obj", "org.voxl.Test", vtable, this) < 0 || sd_bus_start(bus) < 0) {
      ADD_FAILURE() << "the test's server did not start";
      sd_bus_close_unref(bus);
      return;
    }
    for (;;) {
      const int r = sd_bus_process(bus, nullptr);
      if (r < 0) break;
      if (r > 0) continue;
      if (sd_bus_wait(bus, UINT64_MAX) < 0) break;
    }
    sd_bus_close_unref(bus);
  }

  int fd_;
  std::string who_;
  std::atomic<int> left_;
  std::atomic<int> answered_{0};
  std::thread thread_;
};

// A unix socket that an application would listen on; accept() gives the
// next connection to it.
class Listener {
 public:
  Listener() {
    dir_ = std::filesystem::temp_directory_path() / ("voxl-direct-test-" + std::to_string(getpid()) + "-" +
                                                     std::to_string(counter_++));
    std::filesystem::create_directories(dir_);
    fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    const std::string path = (dir_ / "s").string();
    path.copy(a.sun_path, sizeof a.sun_path - 1);
    EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    EXPECT_EQ(listen(fd_, 4), 0);
    address_ = "unix:path=" + path;
  }
  ~Listener() {
    close(fd_);
    std::filesystem::remove_all(dir_);
  }
  const std::string& address() const { return address_; }
  int accept_one() { return accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC); }

 private:
  static inline std::atomic<int> counter_{0};
  std::filesystem::path dir_;
  int fd_ = -1;
  std::string address_;
};

class DirectBatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int fds[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    bus_server_ = std::make_unique<PeerServer>(fds[1], "bus");
    ASSERT_GE(sd_bus_new(&bus_), 0);
    ASSERT_GE(sd_bus_set_fd(bus_, fds[0], fds[0]), 0);
    ASSERT_GE(sd_bus_start(bus_), 0);
  }
  void TearDown() override {
    direct_.reset();
    sd_bus_close_unref(bus_);
    bus_server_.reset();
  }
  // Asks "Who" of :1.5 `n` times in one batch; the answers, in order.
  std::vector<std::string> ask(int n) {
    std::vector<std::string> out(size_t(n), "unanswered");
    CallBatch batch(bus_, std::chrono::steady_clock::now() + 60s, &direct_);
    for (int i = 0; i < n; ++i)
      batch.call(BusObject{":1.5", "/obj"}, "org.voxl.Test", "Who",
                 [&out, i](sd_bus_message* m, const sd_bus_error* e) {
                   const char* who = nullptr;
                   if (m && sd_bus_message_read(m, "s", &who) >= 0 && who)
                     out[size_t(i)] = who;
                   else
                     out[size_t(i)] = std::string("error: ") + (e && e->message ? e->message : "?");
                 });
    EXPECT_TRUE(batch.run());
    return out;
  }

  sd_bus* bus_ = nullptr;
  std::unique_ptr<PeerServer> bus_server_;
  DirectBuses direct_;
};

TEST_F(DirectBatchTest, CallsGoToTheDirectConnectionWhenThereIsOne) {
  Listener app;
  std::unique_ptr<PeerServer> direct_server;
  std::thread accepting([&] { direct_server = std::make_unique<PeerServer>(app.accept_one(), "direct"); });
  direct_.open(":1.5", app.address());
  ASSERT_NE(direct_.find(":1.5"), nullptr);
  EXPECT_EQ(direct_.find(":1.6"), nullptr);
  const auto answers = ask(300);
  accepting.join();
  EXPECT_EQ(answers, std::vector<std::string>(300, "direct"));
  EXPECT_EQ(direct_server->answered(), 300);
  EXPECT_EQ(direct_.all().size(), 1u);
  direct_.reset();
  direct_server.reset();
}

TEST_F(DirectBatchTest, AHangUpSendsTheRestOnTheBusAndNothingIsLost) {
  Listener app;
  std::unique_ptr<PeerServer> direct_server;
  std::thread accepting([&] { direct_server = std::make_unique<PeerServer>(app.accept_one(), "direct", 40); });
  direct_.open(":1.5", app.address());
  const auto answers = ask(300);
  accepting.join();
  int direct = 0, bus = 0;
  for (const std::string& a : answers) {
    direct += a == "direct";
    bus += a == "bus";
  }
  // The application answered 40 before it hung up. Those answers may be
  // lost with the connection, some or all (the kernel drops them when our
  // next call finds it shut, which a slow run such as TSan's shows); their
  // calls are asked again on the bus.
  EXPECT_EQ(direct_server->answered(), 40);
  EXPECT_LE(direct, 40);
  EXPECT_EQ(direct + bus, 300) << answers.back();
  // The application is asked on the bus from then on.
  EXPECT_EQ(direct_.find(":1.5"), nullptr);
  EXPECT_TRUE(direct_.all().empty());
  direct_.open(":1.5", app.address());
  EXPECT_EQ(direct_.find(":1.5"), nullptr);
  EXPECT_EQ(ask(5), std::vector<std::string>(5, "bus"));
  direct_server.reset();
}

TEST_F(DirectBatchTest, NoOneListeningMeansTheBus) {
  std::string address;
  {
    Listener gone;
    address = gone.address();
  }
  direct_.open(":1.5", address);
  EXPECT_EQ(ask(20), std::vector<std::string>(20, "bus"));
  EXPECT_EQ(direct_.find(":1.5"), nullptr);
}

TEST_F(DirectBatchTest, OnlyASocketFileIsOpened) {
  // A path that is not a socket (a directory here) is not connected to.
  direct_.open(":1.5", "unix:path=" + std::filesystem::temp_directory_path().string());
  EXPECT_EQ(direct_.find(":1.5"), nullptr);
  EXPECT_EQ(ask(3), std::vector<std::string>(3, "bus"));
}

TEST_F(DirectBatchTest, AnAddressThatIsNotALocalSocketIsNeverOpened) {
  direct_.open(":1.5", "unixexec:path=/bin/true");
  direct_.open(":1.6", "tcp:host=127.0.0.1,port=9");
  EXPECT_EQ(direct_.find(":1.5"), nullptr);
  EXPECT_EQ(direct_.find(":1.6"), nullptr);
  EXPECT_TRUE(direct_.all().empty());
  EXPECT_EQ(ask(3), std::vector<std::string>(3, "bus"));
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::platform::atspi
