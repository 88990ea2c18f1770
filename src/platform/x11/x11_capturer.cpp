#include "platform/x11/x11_capturer.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <cstring>
#include <stdexcept>

#include "capture/quiet_wait.h"
#include "platform/x11/damage_tracker.h"
#include "platform/x11/framebuffer_source.h"
#include "platform/x11/get_image_source.h"
#include "platform/x11/shm_source.h"
#include "platform/x11/source_plan.h"
#include "platform/x11/xcb_connection.h"
#include "platform/x11/xcb_util.h"

namespace voxl::platform::x11 {

namespace {

// Beyond this many exact rectangles per frame, the block cover is reported
// instead: it is what gets copied anyway.
constexpr size_t kMaxDamageRects = 64;

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

}  // namespace

X11Capturer::X11Capturer(X11CaptureOptions options) : opt_(std::move(options)), log_(opt_.log) {
  if (!log_) throw std::invalid_argument("X11Capturer needs a logger");
  conn_ = std::make_unique<XcbConnection>(opt_.display);
  xcb_connection_t* c = conn_->get();

  const Size root = conn_->root_size();
  root_size_ = root;
  switch (opt_.target) {
    case X11CaptureOptions::Target::kScreen:
      drawable_ = conn_->root();
      size_ = root;
      break;
    case X11CaptureOptions::Target::kRegion:
      if (opt_.region.empty() || !Rect::from_size(root).contains(opt_.region))
        throw std::runtime_error("capture region " + to_string(opt_.region) +
                                 " does not lie on the " + std::to_string(root.width) + "x" +
                                 std::to_string(root.height) + " screen");
      drawable_ = conn_->root();
      origin_ = {opt_.region.x, opt_.region.y, 0, 0};
      root_origin_ = {opt_.region.x, opt_.region.y};
      size_ = opt_.region.size();
      break;
    case X11CaptureOptions::Target::kWindow: {
      drawable_ = opt_.window;
      XcbPtr<xcb_get_geometry_reply_t> g(
          xcb_get_geometry_reply(c, xcb_get_geometry(c, drawable_), nullptr));
      if (!g) throw std::runtime_error("no window " + hex(opt_.window) + " on " + conn_->display_name());
      size_ = {g->width, g->height};
      break;
    }
  }
  // Follow size changes (RandR for the root, resizes for a window) and
  // notice a window going away.
  const uint32_t mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY;
  const std::string err =
      check_request(c, xcb_change_window_attributes_checked(c, drawable_, XCB_CW_EVENT_MASK, &mask));
  if (!err.empty()) throw std::runtime_error("cannot watch window " + hex(drawable_) + ": " + err);

  // The window's position is asked for after its events are selected, so
  // a move in between is reported rather than missed.
  if (opt_.target == X11CaptureOptions::Target::kWindow) {
    const auto p = window_position();
    if (!p) throw std::runtime_error("no window " + hex(opt_.window) + " on " + conn_->display_name());
    root_origin_ = *p;
  }
  damage_ = std::make_unique<DamageTracker>(c, drawable_);

  xcb_visualtype_t* visual = nullptr;
  for (auto d = xcb_screen_allowed_depths_iterator(conn_->screen()); d.rem && !visual;
       xcb_depth_next(&d)) {
    for (auto v = xcb_depth_visuals_iterator(d.data); v.rem; xcb_visualtype_next(&v))
      if (v.data->visual_id == conn_->screen()->root_visual) visual = v.data;
  }
  PixelFormat fmt;
  fmt.bits_per_pixel = conn_->root_bits_per_pixel();
  if (visual) {
    fmt.red_mask = visual->red_mask;
    fmt.green_mask = visual->green_mask;
    fmt.blue_mask = visual->blue_mask;
  }
  if (!fmt.convertible())
    throw std::runtime_error("unsupported X pixel format: " + std::to_string(fmt.bits_per_pixel) +
                             " bits per pixel, masks " + hex(fmt.red_mask) + "/" +
                             hex(fmt.green_mask) + "/" + hex(fmt.blue_mask));
  get_image_ = std::make_unique<GetImageSource>(c, fmt, conn_->scanline_pad());

  wake_fd_ = OwnedFile(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake_fd_.valid()) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));

  choose_source();
  resize_to(size_);
  log_->info("{}", describe());
}

X11Capturer::~X11Capturer() {
  // Sources and damage go before the connection they use.
  primary_.reset();
  damage_.reset();
}

void X11Capturer::choose_source() {
  ServerFacts facts;
  facts.shm_disabled_by_env = env_flag_enabled(std::getenv(kDisableShmEnv));
  facts.shm_disabled_by_caller = !opt_.allow_shm;
  facts.bits_per_pixel = conn_->root_bits_per_pixel();
  facts.lsb_first = xcb_get_setup(conn_->get())->image_byte_order == XCB_IMAGE_ORDER_LSB_FIRST;
  facts.shm = conn_->shm_version();
  facts.local_socket = conn_->is_local_socket();
  const SourcePlan plan = plan_sources(facts);
  active_ = get_image_.get();
  if (!plan.try_shm) {
    reason_ = plan.reason;
    return;
  }

  std::string fb_why;
  if (!opt_.allow_framebuffer) {
    fb_why = "framebuffer source disabled by the caller";
  } else if (opt_.target == X11CaptureOptions::Target::kWindow) {
    fb_why = "window capture";
  } else if (!conn_->is_local_socket()) {
    fb_why = "not a local display";
  } else if (auto fb = FramebufferSource::open(conn_->server_pid(), opt_.framebuffer_shmid,
                                               conn_->root_size(), conn_->root_depth(), fb_why)) {
    primary_ = std::move(fb);
    active_ = primary_.get();
    reason_ = "local Xvfb framebuffer, no X request per frame";
    return;
  }
  log_->debug("Xvfb framebuffer not used: {}", fb_why);

  memfd_possible_ = plan.memfd_possible;
  std::string why;
  if (auto shm = open_shm(why)) {
    primary_ = std::move(shm);
    active_ = primary_.get();
    prepared_ = size_;
    reason_ = "MIT-SHM " + std::to_string(facts.shm->major) + "." +
              std::to_string(facts.shm->minor) + (facts.local_socket ? " on a local socket" : "");
    return;
  }
  reason_ = why;
}

std::unique_ptr<PixelSource> X11Capturer::open_shm(std::string& why) {
  std::vector<ShmKind> kinds;
  if (opt_.shm_kind) {
    if (*opt_.shm_kind == ShmKind::kMemfd && !memfd_possible_) {
      why = "memfd segments were requested but need MIT-SHM 1.2 over a local socket";
      return nullptr;
    }
    kinds = {*opt_.shm_kind};
  } else if (memfd_possible_) {
    kinds = {ShmKind::kMemfd, ShmKind::kSysV};
  } else {
    kinds = {ShmKind::kSysV};
  }
  std::string errors;
  for (ShmKind k : kinds) {
    auto shm = std::make_unique<ShmSource>(conn_->get(), k);
    const std::string err = shm->prepare(size_);
    if (err.empty()) return shm;
    errors += (errors.empty() ? "" : "; ") + err;
  }
  why = "no shared-memory segment could be used: " + errors;
  return nullptr;
}

std::string X11Capturer::describe() const {
  std::string target;
  switch (opt_.target) {
    case X11CaptureOptions::Target::kScreen: target = "screen"; break;
    case X11CaptureOptions::Target::kRegion: target = "region " + to_string(opt_.region); break;
    case X11CaptureOptions::Target::kWindow: target = "window " + hex(opt_.window); break;
  }
  return "X11 " + conn_->display_name() + " " + target + " " + std::to_string(size_.width) + "x" +
         std::to_string(size_.height) + " via " + active_->describe() + ": " + reason_;
}

uint32_t X11Capturer::shm_segment_id() const {
  const auto* shm = dynamic_cast<const ShmSource*>(primary_.get());
  return shm && active_ == primary_.get() ? shm->segment_id() : 0;
}

void X11Capturer::resize_to(Size s) {
  size_ = s;
  pending_blocks_ = BlockMap(s);
  pending_blocks_.add_all();
  pending_rects_.assign(1, Rect::from_size(s));
}

std::optional<Point> X11Capturer::window_position() {
  xcb_connection_t* c = conn_->get();
  XcbPtr<xcb_translate_coordinates_reply_t> t(
      xcb_translate_coordinates_reply(c, xcb_translate_coordinates(c, drawable_, conn_->root(), 0, 0), nullptr));
  if (!t) return std::nullopt;
  return Point{t->dst_x, t->dst_y};
}

void X11Capturer::add_damage(const Rect& r) {
  const Rect c = r.intersect(Rect::from_size(size_));
  if (c.empty()) return;
  pending_blocks_.add(c);
  if (pending_rects_.size() <= kMaxDamageRects) pending_rects_.push_back(c);
}

void X11Capturer::invalidate(const Rect& r) { add_damage(r); }

void X11Capturer::wake() {
  const uint64_t one = 1;
  // Fails only when the count would overflow: then a wake is pending anyway.
  [[maybe_unused]] ssize_t n = write(wake_fd_.get(), &one, sizeof one);
}

void X11Capturer::drain_events() {
  xcb_connection_t* c = conn_->get();
  while (xcb_generic_event_t* raw = xcb_poll_for_event(c)) {
    XcbPtr<xcb_generic_event_t> e(raw);
    if (damage_->handle_event(e.get())) continue;
    switch (e->response_type & 0x7f) {
      case 0:
        log_->debug("X error: {}", describe_error(reinterpret_cast<xcb_generic_error_t*>(e.get())));
        break;
      case XCB_CONFIGURE_NOTIFY: {
        const auto* ev = reinterpret_cast<const xcb_configure_notify_event_t*>(e.get());
        if (ev->window != drawable_) break;
        if (opt_.target == X11CaptureOptions::Target::kRegion) {
          root_size_ = {ev->width, ev->height};
          break;
        }
        const Size s{ev->width, ev->height};
        if (s != size_) {
          log_->info("capture area resized from {}x{} to {}x{}", size_.width, size_.height, s.width,
                     s.height);
          resize_to(s);
        }
        // A window moved (by itself, or its frame by a window manager,
        // which then sends a synthetic notify): input is mapped by where
        // it is, so a frame goes out even when no pixel changed.
        if (opt_.target == X11CaptureOptions::Target::kWindow) {
          const auto p = window_position();
          if (p && *p != root_origin_) {
            log_->debug("captured window moved from {},{} to {},{}", root_origin_.x, root_origin_.y, p->x, p->y);
            root_origin_ = *p;
            add_damage({0, 0, 1, 1});
          }
        }
        break;
      }
      case XCB_DESTROY_NOTIFY: {
        const auto* ev = reinterpret_cast<const xcb_destroy_notify_event_t*>(e.get());
        if (ev->window == drawable_) gone_ = true;
        break;
      }
      default:
        break;
    }
  }
}

std::string X11Capturer::prepare_active() {
  std::string err = active_->prepare(size_);
  if (!err.empty() && active_ != get_image_.get()) {
    const std::string was = active_->describe();
    const bool was_framebuffer = active_->kind() == SourceKind::kFramebuffer;
    std::string why;
    active_ = nullptr;
    primary_.reset();
    if (was_framebuffer) primary_ = open_shm(why);
    active_ = primary_ ? primary_.get() : get_image_.get();
    log_->warn("{} cannot serve {}x{} ({}); using {}", was, size_.width, size_.height, err,
               active_->describe());
    reason_ = "fell back after a resize: " + err;
    ++fallbacks_;
    err.clear();
  }
  if (err.empty()) prepared_ = size_;
  return err;
}

void X11Capturer::fall_back(const std::string& why) {
  active_ = get_image_.get();
  primary_.reset();  // detaches its segments: frames in them stay readable
  reason_ = "fell back at run time: " + why;
  ++fallbacks_;
}

std::string X11Capturer::grab(std::span<const Rect> rects, capture::Frame& frame) {
  if (prepared_ != size_) {
    if (std::string err = prepare_active(); !err.empty()) return err;
  }
  std::string err = active_->grab(drawable_, origin_, rects, frame);
  if (err.empty() || active_ == get_image_.get()) return err;

  // The same frame through GetImage: if that works, the shared-memory path
  // is what broke, so leave it; if not, the target itself is the problem.
  std::string retry = get_image_->grab(drawable_, origin_, rects, frame);
  if (!retry.empty()) return err + "; GetImage retry: " + retry;
  log_->warn("{} failed ({}); GetImage worked, using it from now on", active_->describe(), err);
  fall_back(err);
  return {};
}

std::optional<capture::FramePool::Lease> X11Capturer::acquire(capture::FramePool& pool) {
  if (prepared_ != size_) {
    // A source that cannot serve the new size is replaced before buffers
    // are made for it.
    if (std::string err = prepare_active(); !err.empty()) return pool.acquire(size_);
  }
  const auto allocator = active_->allocator();
  auto lease = pool.acquire(size_, allocator);
  if (lease || !allocator || !pool.allocation_failed()) return lease;
  // The pool had a free buffer but no segment could be made for it (shared
  // memory limits, say): GetImage into heap buffers from now on.
  const std::string why = "no shared-memory frame buffer for " + size_text(size_);
  log_->warn("{} ({}); using {}", active_->describe(), why, get_image_->describe());
  fall_back(why);
  return pool.acquire(size_);
}

void X11Capturer::take_damage() {
  if (!damage_->notified()) return;
  scratch_.clear();
  if (!damage_->take(scratch_)) {
    add_damage(Rect::from_size(size_));
  } else {
    for (const Rect& r : scratch_) add_damage(r.translated(-origin_.x, -origin_.y));
  }
}

bool X11Capturer::wait_for_events(std::chrono::steady_clock::time_point deadline) {
  xcb_flush(conn_->get());
  pollfd fds[2] = {{conn_->fd(), POLLIN, 0}, {wake_fd_.get(), POLLIN, 0}};
  for (;;) {
    const auto left = std::max<int64_t>(
        0, std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - std::chrono::steady_clock::now()).count());
    const timespec ts{time_t(left / 1'000'000'000), long(left % 1'000'000'000)};
    const int n = ppoll(fds, 2, &ts, nullptr);
    if (n < 0 && errno == EINTR) continue;
    if (fds[1].revents & POLLIN) {
      uint64_t v;
      [[maybe_unused]] ssize_t r = read(wake_fd_.get(), &v, sizeof v);
      return false;
    }
    return n > 0;
  }
}

// Each take() re-arms the server's report, so a drawing still in progress
// reports again; the wait ends once it has been quiet.
void X11Capturer::wait_for_quiet(std::chrono::microseconds quiet, std::chrono::microseconds longest) {
  using Clock = std::chrono::steady_clock;
  if (conn_->failed() || gone_) return;
  drain_events();
  if (!damage_->notified()) return;  // nothing is being drawn (or it is already taken)
  capture::QuietWait wait(Clock::now(), quiet, longest);
  for (;;) {
    take_damage();
    if (conn_->failed()) return;
    for (;;) {
      if (wait.done(Clock::now())) return;
      if (!wait_for_events(wait.deadline())) {
        if (!wait.done(Clock::now())) return;  // woken
        continue;
      }
      drain_events();
      if (conn_->failed() || gone_) return;
      if (damage_->notified()) break;
    }
    wait.on_change(Clock::now());
  }
}

bool X11Capturer::change_pending() const {
  return damage_->notified() || !pending_blocks_.empty() || conn_->failed() || gone_;
}

bool X11Capturer::wait_for_change(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  if (conn_->failed()) return true;
  drain_events();
  if (!change_pending() && wait_for_events(deadline)) drain_events();
  return change_pending();
}

capture::CaptureResult X11Capturer::capture(capture::FramePool& pool, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  if (conn_->failed()) return {capture::CaptureStatus::kReinit, nullptr, "the X connection was lost"};
  drain_events();
  if (!damage_->notified() && pending_blocks_.empty() && wait_for_events(deadline)) drain_events();
  if (conn_->failed()) return {capture::CaptureStatus::kReinit, nullptr, "the X connection was lost"};
  if (gone_) return {capture::CaptureStatus::kPermanent, nullptr, "the captured window was destroyed"};
  if (opt_.target == X11CaptureOptions::Target::kRegion &&
      !Rect::from_size(root_size_).contains(opt_.region))
    return {capture::CaptureStatus::kTemporary, nullptr,
            "capture region " + to_string(opt_.region) + " lies outside the " +
                std::to_string(root_size_.width) + "x" + std::to_string(root_size_.height) + " screen"};

  take_damage();
  if (pending_blocks_.empty()) return {capture::CaptureStatus::kNoChange, nullptr, {}};

  const auto grab_start = std::chrono::steady_clock::now();
  auto lease = acquire(pool);
  if (!lease) return {capture::CaptureStatus::kTemporary, nullptr, "no free frame buffer"};
  capture::Frame& frame = *lease->frame;

  BlockMap to_grab = pending_blocks_;
  if (!lease->source) to_grab.add_all();
  // What the source writes: at least what is pending (ShmGetImage may widen
  // it to full-width bands that land in place).
  const std::vector<Rect> rects = active_->coverage(to_grab.to_rects(), size_);
  BlockMap written(size_);
  for (const Rect& r : rects) written.add(r);
  if (lease->source) {
    // Bring the reused buffer up to date from the newest frame where it is
    // stale and the grab does not write.
    BlockMap copy = lease->stale;
    copy.subtract(written);
    for (const Rect& r : copy.to_rects()) {
      const size_t row_bytes = size_t(r.width) * capture::kBytesPerPixel;
      for (int y = r.y; y < r.bottom(); ++y)
        std::memcpy(frame.row(y) + ptrdiff_t(r.x) * capture::kBytesPerPixel,
                    lease->source + ptrdiff_t(y) * lease->source_stride + ptrdiff_t(r.x) * capture::kBytesPerPixel,
                    row_bytes);
    }
  }

  if (std::string err = grab(rects, frame); !err.empty()) {
    pool.discard(frame);
    return {capture::CaptureStatus::kTemporary, nullptr, err};
  }

  frame.damage_blocks = pending_blocks_;
  if (pending_rects_.size() <= kMaxDamageRects)
    frame.damage_rects = pending_rects_;
  else
    frame.damage_rects = pending_blocks_.to_rects();
  frame.origin = root_origin_;
  frame.seq = ++seq_;
  frame.captured_at = std::chrono::steady_clock::now();
  frame.grab_us = uint32_t(
      std::chrono::duration_cast<std::chrono::microseconds>(frame.captured_at - grab_start).count());
  pool.publish(frame, written);
  pending_blocks_.clear();
  pending_rects_.clear();
  return {capture::CaptureStatus::kOk, std::move(lease->frame), {}};
}

}  // namespace voxl::platform::x11
