#include "platform/x11/source_plan.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace voxl::platform::x11 {
namespace VOXL_TEST_FILE {

TEST(EnvFlagEnabled, TrueWords) {
  for (const char* v : {"1", "true", "yes", "on", "TRUE", "True", "YES", "yEs", "ON", "On",
                        " 1", "1 ", "  true  ", "\tyes\n", " ON\t"}) {
    EXPECT_TRUE(env_flag_enabled(v)) << "'" << v << "'";
  }
}

TEST(EnvFlagEnabled, EverythingElseIsFalse) {
  for (const char* v : {"0", "false", "no", "off", "", "   ", "2", "yesno", "FALSE", "Off",
                        "y", "t", "enable", "1 1", "tru e", "01", "on1"}) {
    EXPECT_FALSE(env_flag_enabled(v)) << "'" << v << "'";
  }
}

TEST(EnvFlagEnabled, NullIsFalse) { EXPECT_FALSE(env_flag_enabled(nullptr)); }

ServerFacts good_local_server(int major = 1, int minor = 2) {
  ServerFacts f;
  f.bits_per_pixel = 32;
  f.lsb_first = true;
  f.shm = ShmVersion{major, minor, true};
  f.local_socket = true;
  return f;
}

void expect_get_image(const ServerFacts& f, const std::string& must_mention) {
  const SourcePlan p = plan_sources(f);
  EXPECT_FALSE(p.try_shm);
  EXPECT_FALSE(p.memfd_possible);
  EXPECT_FALSE(p.reason.empty());
  EXPECT_NE(p.reason.find(must_mention), std::string::npos)
      << "reason '" << p.reason << "' does not mention '" << must_mention << "'";
}

TEST(PlanSources, DisabledByEnvironment) {
  ServerFacts f = good_local_server();
  f.shm_disabled_by_env = true;
  expect_get_image(f, "VOXL_X11_DISABLE_SHM");
  EXPECT_STREQ(kDisableShmEnv, "VOXL_X11_DISABLE_SHM");
}

TEST(PlanSources, DisabledByCaller) {
  ServerFacts f = good_local_server();
  f.shm_disabled_by_caller = true;
  expect_get_image(f, "caller");
}

TEST(PlanSources, NoShmExtension) {
  ServerFacts f = good_local_server();
  f.shm.reset();
  expect_get_image(f, "no MIT-SHM");
}

TEST(PlanSources, ShmVersionOneZeroIsTooOld) {
  expect_get_image(good_local_server(1, 0), "1.0");
  expect_get_image(good_local_server(0, 9), "0.9");
}

TEST(PlanSources, NonThirtyTwoBitPixels) {
  ServerFacts f = good_local_server();
  f.bits_per_pixel = 16;
  expect_get_image(f, "16 bits per pixel");
  f.bits_per_pixel = 24;
  expect_get_image(f, "24 bits per pixel");
}

TEST(PlanSources, BigEndianImages) {
  ServerFacts f = good_local_server();
  f.lsb_first = false;
  expect_get_image(f, "big-endian");
}

TEST(PlanSources, EnvironmentTakesPrecedenceOverOtherReasons) {
  ServerFacts f;
  f.shm_disabled_by_env = true;
  f.shm_disabled_by_caller = true;
  f.shm.reset();
  f.bits_per_pixel = 16;
  f.lsb_first = false;
  expect_get_image(f, "VOXL_X11_DISABLE_SHM");
}

TEST(PlanSources, Version1_1LocalUsesSysVOnly) {
  const SourcePlan p = plan_sources(good_local_server(1, 1));
  EXPECT_TRUE(p.try_shm);
  EXPECT_FALSE(p.memfd_possible);
  EXPECT_EQ(p.first_kind, ShmKind::kSysV);
}

TEST(PlanSources, Version1_2LocalTriesMemfdFirst) {
  const SourcePlan p = plan_sources(good_local_server(1, 2));
  EXPECT_TRUE(p.try_shm);
  EXPECT_TRUE(p.memfd_possible);
  EXPECT_EQ(p.first_kind, ShmKind::kMemfd);
}

TEST(PlanSources, NewerVersionsLocalTryMemfdFirst) {
  for (auto [major, minor] : {std::pair{1, 3}, std::pair{2, 0}}) {
    const SourcePlan p = plan_sources(good_local_server(major, minor));
    EXPECT_TRUE(p.try_shm) << major << "." << minor;
    EXPECT_TRUE(p.memfd_possible) << major << "." << minor;
    EXPECT_EQ(p.first_kind, ShmKind::kMemfd) << major << "." << minor;
  }
}

TEST(PlanSources, Version1_2OverTcpUsesSysV) {
  ServerFacts f = good_local_server(1, 2);
  f.local_socket = false;
  const SourcePlan p = plan_sources(f);
  EXPECT_TRUE(p.try_shm);
  EXPECT_FALSE(p.memfd_possible);
  EXPECT_EQ(p.first_kind, ShmKind::kSysV);
}

}  // namespace
}  // namespace voxl::platform::x11
