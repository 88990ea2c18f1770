#include "voxl_fixture.h"

#include <iostream>

namespace voxl::testing {

void VoxlFixture::start_display(uint32_t background, Size size) {
  platform::x11::VirtualDisplayOptions o;
  o.size = size;
  display_.emplace(o);
  painter_.emplace(display_->name());
  fill(Rect::from_size(size), background);
}

void VoxlFixture::start_voxl(const std::vector<std::string>& extra_args, const std::vector<std::string>& env) {
  if (!display_) start_display(0);
  std::vector<std::string> args{"--addr=" + listen_address_};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  voxl_.emplace(display_->name(), args, std::chrono::seconds(60), env);
}

void VoxlFixture::TearDown() {
  if (!voxl_) return;
  // A clean exit is part of every test: under the sanitizers a leak or an
  // error at shutdown shows up as a non-zero status.
  const int status = voxl_->stop();
  EXPECT_EQ(status, 0) << "voxl did not exit cleanly after SIGTERM";
  if (HasFailure()) std::cerr << "---- voxl's log ----\n" << voxl_->log() << "---- end of voxl's log ----\n";
  voxl_.reset();
  painter_.reset();
  display_.reset();
}

ClientOptions VoxlFixture::client_options() const {
  ClientOptions o;
  o.port = voxl_->port();
  return o;
}

}  // namespace voxl::testing
