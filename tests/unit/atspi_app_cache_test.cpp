// An application's element cache (Cache.GetItems) read into elements with
// their children in order, from a message built as an application would
// send it; a message of another layout (Qt's older one) is refused.
#include "platform/atspi/app_cache.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <functional>
#include <string>
#include <vector>

namespace voxl::platform::atspi {
namespace VOXL_TEST_FILE {

class AppCacheTest : public ::testing::Test {
 protected:
  // Messages are made on a started connection; one end of a socket pair
  // is enough (nothing is sent).
  void SetUp() override {
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds_), 0);
    ASSERT_GE(sd_bus_new(&bus_), 0);
    ASSERT_GE(sd_bus_set_fd(bus_, fds_[0], fds_[0]), 0);
    ASSERT_GE(sd_bus_start(bus_), 0);
  }
  void TearDown() override {
    sd_bus_message_unref(m_);
    sd_bus_close_unref(bus_);
    close(fds_[1]);
  }
  // A sealed signal carrying `fill`'s arguments, ready to read.
  sd_bus_message* message(const std::function<void(sd_bus_message*)>& fill) {
    EXPECT_GE(sd_bus_message_new_signal(bus_, &m_, "/org/a11y/atspi/cache", "org.a11y.atspi.Cache", "Test"), 0);
    fill(m_);
    EXPECT_GE(sd_bus_message_seal(m_, 1, 0), 0);
    EXPECT_GE(sd_bus_message_rewind(m_, 1), 0);
    return m_;
  }
  static void item(sd_bus_message* m, const char* self, const char* parent, int index, int count, const char* name,
                   uint32_t role, uint32_t state0) {
    const char* ifaces[] = {"org.a11y.atspi.Accessible", "org.a11y.atspi.Component", nullptr};
    ASSERT_GE(sd_bus_message_open_container(m, 'r', "(so)(so)(so)iiassusau"), 0);
    ASSERT_GE(sd_bus_message_append(m, "(so)(so)(so)ii", ":1.5", self, ":1.5", "/org/a11y/atspi/accessible/root",
                                    ":1.5", parent, index, count),
              0);
    ASSERT_GE(sd_bus_message_append_strv(m, const_cast<char**>(ifaces)), 0);
    ASSERT_GE(sd_bus_message_append(m, "sus", name, role, "about it"), 0);
    ASSERT_GE(sd_bus_message_append(m, "au", 2, state0, 0u), 0);
    ASSERT_GE(sd_bus_message_close_container(m), 0);
  }

  int fds_[2] = {-1, -1};
  sd_bus* bus_ = nullptr;
  sd_bus_message* m_ = nullptr;
};

TEST_F(AppCacheTest, ElementsAndTheirChildrenInOrder) {
  sd_bus_message* m = message([](sd_bus_message* msg) {
    ASSERT_GE(sd_bus_message_open_container(msg, 'a', "((so)(so)(so)iiassusau)"), 0);
    item(msg, "/org/a11y/atspi/accessible/root", "/org/a11y/atspi/null", -1, 1, "app", 75, 0);
    item(msg, "/org/a11y/atspi/accessible/3", "/org/a11y/atspi/accessible/1", 1, 0, "Second", 43, 1u << 25);
    item(msg, "/org/a11y/atspi/accessible/1", "/org/a11y/atspi/accessible/root", 0, 2, "Window", 23, 0);
    item(msg, "/org/a11y/atspi/accessible/2", "/org/a11y/atspi/accessible/1", 0, 0, "First", 43, 0);
    item(msg, "/org/a11y/atspi/accessible/9", "/org/a11y/atspi/accessible/1", -1, -1, "Transient", 41, 0);
    ASSERT_GE(sd_bus_message_close_container(msg), 0);
  });
  AppCache cache;
  ASSERT_TRUE(read_app_cache(m, 100, cache));
  ASSERT_EQ(cache.size(), 5u);
  const CachedElement& window = cache.at("/org/a11y/atspi/accessible/1");
  EXPECT_EQ(window.name, "Window");
  EXPECT_EQ(window.role, 23u);
  EXPECT_EQ(window.child_count, 2);
  // Ordered by index; the transient one (no index) is not listed.
  EXPECT_EQ(window.children, (std::vector<std::string>{"/org/a11y/atspi/accessible/2", "/org/a11y/atspi/accessible/3"}));
  EXPECT_EQ(cache.at("/org/a11y/atspi/accessible/root").parent, "");
  const CachedElement& second = cache.at("/org/a11y/atspi/accessible/3");
  EXPECT_EQ(second.states[0], 1u << 25);
  EXPECT_EQ(second.description, "about it");
  EXPECT_EQ(second.interfaces.size(), 2u);
}

TEST_F(AppCacheTest, TheLimitHoldsAndAnotherLayoutIsRefused) {
  sd_bus_message* m = message([](sd_bus_message* msg) {
    ASSERT_GE(sd_bus_message_open_container(msg, 'a', "((so)(so)(so)iiassusau)"), 0);
    for (int i = 0; i < 10; ++i)
      item(msg, ("/org/a11y/atspi/accessible/" + std::to_string(i + 1)).c_str(), "/org/a11y/atspi/accessible/root", i,
           0, "x", 43, 0);
    ASSERT_GE(sd_bus_message_close_container(msg), 0);
  });
  AppCache cache;
  ASSERT_TRUE(read_app_cache(m, 4, cache));
  EXPECT_EQ(cache.size(), 4u);
  sd_bus_message_unref(m_);
  m_ = nullptr;
  // Qt's: a((so)(so)(so)a(so)assusau).
  m = message([](sd_bus_message* msg) {
    ASSERT_GE(sd_bus_message_open_container(msg, 'a', "((so)(so)(so)a(so)assusau)"), 0);
    ASSERT_GE(sd_bus_message_close_container(msg), 0);
  });
  AppCache other;
  EXPECT_FALSE(read_app_cache(m, 100, other));
  EXPECT_TRUE(other.empty());
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::platform::atspi
