#include "platform/windows/capture/windows_capturer.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "platform/windows/capture/capture_plan.h"
#include "platform/windows/capture/dxgi_duplicator.h"
#include "platform/windows/capture/gdi_grabber.h"
#include "platform/windows/win_error.h"

namespace voxl::platform::windows {

using capture::CaptureResult;
using capture::CaptureStatus;

namespace {

// Beyond this many exact rectangles per frame, the block cover is reported
// instead: it is what gets copied anyway.
constexpr size_t kMaxDamageRects = 64;

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

DWORD to_wait_ms(std::chrono::steady_clock::duration d) {
  return DWORD(std::max<int64_t>(0, std::chrono::ceil<std::chrono::milliseconds>(d).count()));
}

}  // namespace

WindowsCapturer::WindowsCapturer(WindowsCaptureOptions options) : opt_(std::move(options)), log_(opt_.log) {
  if (!log_) throw std::invalid_argument("WindowsCapturer needs a logger");
  wake_event_ = OwnedHandle(CreateEventW(nullptr, FALSE, FALSE, nullptr));
  if (!wake_event_) throw std::runtime_error(describe_last_error("CreateEvent"));

  switch (opt_.target.kind) {
    case CaptureTarget::Kind::kScreen:
      monitor_ = choose_monitor(opt_.display);
      area_ = monitor_.monitor.rect;
      break;
    case CaptureTarget::Kind::kRegion: {
      const Rect desktop = virtual_desktop_rect();
      const Rect& r = opt_.target.region;
      if (r.empty() || !desktop.contains(r))
        throw std::runtime_error("capture region " + to_string(r) + " does not lie on the " + to_string(desktop) +
                                 " desktop");
      area_ = r;
      break;
    }
    case CaptureTarget::Kind::kWindow: {
      window_ = reinterpret_cast<HWND>(static_cast<uintptr_t>(opt_.target.window));
      RECT rc{};
      if (!window_ || !IsWindow(window_) || !GetClientRect(window_, &rc))
        throw std::runtime_error("no window " + hex(opt_.target.window) + " on this desktop");
      area_ = {0, 0, int(rc.right - rc.left), int(rc.bottom - rc.top)};
      break;
    }
  }
  {
    const Rect m = opt_.target.kind == CaptureTarget::Kind::kScreen ? monitor_.monitor.rect
                                                                     : choose_monitor(opt_.display).monitor.rect;
    input_corner_ = {m.x, m.y};
  }
  if (window_) follow_window_position();
  gdi_ = std::make_unique<GdiGrabber>(window_);
  choose_source();
  resize_to(area_.size());
  log_->info("{}", describe());
}

WindowsCapturer::~WindowsCapturer() = default;

void WindowsCapturer::choose_source() {
  CaptureFacts facts;
  facts.dxgi_disabled_by_env = env_flag_enabled(std::getenv(kDisableDxgiEnv));
  facts.dxgi_disabled_by_caller = !opt_.allow_dxgi;
  facts.window_target = opt_.target.kind == CaptureTarget::Kind::kWindow;
  if (opt_.target.kind == CaptureTarget::Kind::kRegion) {
    facts.region_on_one_monitor = false;
    const std::vector<MonitorInfo> all = list_monitors();
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].rect.contains(area_)) {
        monitor_ = {all[i], int(i), int(all.size())};
        facts.region_on_one_monitor = true;
        break;
      }
  }
  const CapturePlan plan = plan_capture(facts);
  if (!plan.try_dxgi) {
    reason_ = plan.reason;
    return;
  }
  std::string why;
  dxgi_ = DxgiDuplicator::open(monitor_.monitor.handle, why);
  if (!dxgi_) {
    reason_ = "DXGI Desktop Duplication is not available: " + why;
    return;
  }
  if (opt_.target.kind == CaptureTarget::Kind::kScreen) area_ = dxgi_->desktop_rect();
  reason_ = "changes reported by the duplication's dirty and move rectangles";
}

std::string WindowsCapturer::describe() const {
  std::string target;
  switch (opt_.target.kind) {
    case CaptureTarget::Kind::kScreen: target = windows::describe(monitor_); break;
    case CaptureTarget::Kind::kRegion: target = "region " + to_string(opt_.target.region); break;
    case CaptureTarget::Kind::kWindow: target = "window " + hex(opt_.target.window); break;
  }
  return "Windows " + target + " " + size_text(size_) + " via " +
         (dxgi_ ? dxgi_->describe() : std::string("GDI BitBlt (compared every ") +
                                          std::to_string(kGdiPollInterval.count()) + " ms)") +
         ": " + reason_;
}

void WindowsCapturer::resize_to(Size s) {
  size_ = s;
  pending_blocks_ = BlockMap(s);
  pending_blocks_.add_all();
  pending_rects_.assign(1, Rect::from_size(s));
  pending_rects_overflow_ = false;
}

void WindowsCapturer::add_damage(const Rect& r) {
  const Rect c = r.intersect(Rect::from_size(size_));
  if (c.empty()) return;
  pending_blocks_.add(c);
  if (pending_rects_.size() < kMaxDamageRects)
    pending_rects_.push_back(c);
  else
    pending_rects_overflow_ = true;
}

void WindowsCapturer::invalidate(const Rect& r) { add_damage(r); }

void WindowsCapturer::wake() { SetEvent(wake_event_.get()); }

bool WindowsCapturer::woken(DWORD wait_ms) {
  return WaitForSingleObject(wake_event_.get(), wait_ms) == WAIT_OBJECT_0;
}

Point WindowsCapturer::origin() const {
  const Point corner = window_ ? window_corner_ : Point{area_.x, area_.y};
  return {corner.x - input_corner_.x, corner.y - input_corner_.y};
}

void WindowsCapturer::follow_window_position() {
  POINT p{0, 0};
  if (!ClientToScreen(window_, &p)) return;
  const Point now{int(p.x), int(p.y)};
  if (now == window_corner_) return;
  window_corner_ = now;
  add_damage({0, 0, 1, 1});
}

bool WindowsCapturer::current_area(Rect& area, std::string& error) {
  switch (opt_.target.kind) {
    case CaptureTarget::Kind::kWindow: {
      RECT rc{};
      if (!IsWindow(window_) || !GetClientRect(window_, &rc)) {
        error = "the captured window " + hex(opt_.target.window) + " was destroyed";
        return false;
      }
      area = {0, 0, int(rc.right - rc.left), int(rc.bottom - rc.top)};
      return true;
    }
    case CaptureTarget::Kind::kRegion:
      area = opt_.target.region;
      return true;
    case CaptureTarget::Kind::kScreen: {
      MONITORINFO info{};
      info.cbSize = sizeof info;
      if (GetMonitorInfoW(monitor_.monitor.handle, &info)) {
        const RECT& r = info.rcMonitor;
        area = {int(r.left), int(r.top), int(r.right - r.left), int(r.bottom - r.top)};
        return true;
      }
      // The monitor's handle went away (displays changed): look it up again.
      try {
        monitor_ = choose_monitor(opt_.display);
        area = monitor_.monitor.rect;
      } catch (const std::exception& e) {
        area = {};
        error = e.what();
      }
      return true;
    }
  }
  return true;
}

WindowsCapturer::Refresh WindowsCapturer::refresh(std::chrono::steady_clock::time_point deadline,
                                                  std::string& error) {
  return dxgi_ ? refresh_dxgi(deadline, error) : refresh_gdi(deadline, error);
}

WindowsCapturer::Refresh WindowsCapturer::refresh_gdi(std::chrono::steady_clock::time_point deadline,
                                                      std::string& error) {
  for (;;) {
    Rect area;
    if (!current_area(area, error)) return Refresh::kGone;
    if (area.empty()) {
      if (error.empty()) error = "the capture area is empty (a minimized window?)";
      return Refresh::kFailed;
    }
    if (opt_.target.kind == CaptureTarget::Kind::kRegion && !virtual_desktop_rect().contains(area)) {
      error = "capture region " + to_string(area) + " lies outside the " + to_string(virtual_desktop_rect()) +
              " desktop";
      return Refresh::kTemporary;
    }
    if (area.size() != size_) {
      log_->info("capture area resized from {} to {}", size_text(size_), size_text(area.size()));
      resize_to(area.size());
    }
    if (window_) follow_window_position();
    BlockMap changed;
    if (std::string err = gdi_->grab(area, changed); !err.empty()) {
      if (window_ && !IsWindow(window_)) {
        error = "the captured window " + hex(opt_.target.window) + " was destroyed";
        return Refresh::kGone;
      }
      error = err;
      return Refresh::kFailed;
    }
    area_ = area;
    if (!changed.empty()) {
      pending_blocks_.unite(changed);
      for (const Rect& r : changed.to_rects()) add_damage(r);
    }
    if (change_pending()) return Refresh::kReady;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return Refresh::kReady;
    if (woken(to_wait_ms(std::min<std::chrono::steady_clock::duration>(kGdiPollInterval, deadline - now))))
      return Refresh::kReady;
  }
}

WindowsCapturer::Refresh WindowsCapturer::duplication_lost(std::string& error) {
  const std::string lost = error;
  const std::string why = dxgi_->recreate();
  const auto now = std::chrono::steady_clock::now();
  if (why.empty()) {
    lost_ = false;
    log_->info("desktop duplication lost ({}); re-created it", lost);
    if (opt_.target.kind == CaptureTarget::Kind::kScreen) area_ = dxgi_->desktop_rect();
    if (area_.size() != size_)
      resize_to(area_.size());
    else
      add_damage(Rect::from_size(size_));
    error = "the desktop duplication was lost (" + lost + ") and has been re-created";
    return Refresh::kTemporary;
  }
  if (!lost_) {
    lost_ = true;
    lost_since_ = now;
  }
  error = "the desktop duplication was lost (" + lost + ") and cannot be re-created: " + why;
  return now - lost_since_ >= kReinitAfterLost ? Refresh::kReinit : Refresh::kTemporary;
}

WindowsCapturer::Refresh WindowsCapturer::refresh_dxgi(std::chrono::steady_clock::time_point deadline,
                                                       std::string& error) {
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    const bool ready = ready_to_copy();
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(
        std::max<std::chrono::steady_clock::duration>(deadline - now, std::chrono::steady_clock::duration::zero()));
    const auto slice = ready ? std::chrono::milliseconds(0) : std::min(left, kDxgiWakeSlice);
    scratch_.clear();
    switch (dxgi_->next(slice, scratch_, error)) {
      case DxgiDuplicator::Next::kImage: {
        lost_ = false;
        const Rect out = dxgi_->desktop_rect();
        for (const Rect& r : scratch_) add_damage(r.translated(out.x - area_.x, out.y - area_.y));
        break;
      }
      case DxgiDuplicator::Next::kTimeout:
        break;
      case DxgiDuplicator::Next::kAccessLost:
        return duplication_lost(error);
      case DxgiDuplicator::Next::kError:
        return Refresh::kFailed;
    }
    if (ready_to_copy()) return Refresh::kReady;
    if (std::chrono::steady_clock::now() >= deadline || woken(0)) return Refresh::kReady;
  }
}

bool WindowsCapturer::fall_back_to_gdi(const std::string& dxgi_error, std::string& error) {
  Rect area;
  std::string why;
  if (!current_area(area, why) || area.empty()) {
    error = dxgi_error + "; GDI retry: " + (why.empty() ? "no area to grab" : why);
    return false;
  }
  gdi_->forget();
  BlockMap changed;
  if (std::string err = gdi_->grab(area, changed); !err.empty()) {
    error = dxgi_error + "; GDI retry: " + err;
    return false;
  }
  log_->warn("{} failed ({}); GDI BitBlt worked, using it from now on", dxgi_->describe(), dxgi_error);
  dxgi_.reset();
  reason_ = "fell back at run time: " + dxgi_error;
  ++fallbacks_;
  area_ = area;
  resize_to(area.size());
  return true;
}

std::string WindowsCapturer::copy_out(std::span<const Rect> rects, capture::Frame& frame) {
  if (dxgi_) {
    ImageView v;
    if (std::string err = dxgi_->map(v); !err.empty()) return err;
    const Rect out = dxgi_->desktop_rect();
    const int dx = area_.x - out.x, dy = area_.y - out.y;
    std::string err;
    if (!Rect::from_size(v.size).contains(Rect::from_size(size_).translated(dx, dy)))
      err = "the desktop image (" + size_text(v.size) + ") does not cover the capture area";
    else
      copy_rects(v, dx, dy, rects, frame);
    dxgi_->unmap();
    return err;
  }
  const ImageView v = gdi_->image();
  if (!v.data || v.size != size_) return "no GDI picture of the current size yet";
  copy_rects(v, 0, 0, rects, frame);
  return {};
}

bool WindowsCapturer::ready_to_copy() const { return change_pending() && (!dxgi_ || dxgi_->has_image()); }

bool WindowsCapturer::wait_for_change(std::chrono::milliseconds timeout) {
  if (ready_to_copy()) return true;
  std::string error;
  const Refresh r = refresh(std::chrono::steady_clock::now() + timeout, error);
  return r != Refresh::kReady || ready_to_copy();
}

bool WindowsCapturer::take_damage(std::vector<Rect>& out) {
  if (!change_pending()) return false;
  if (pending_rects_overflow_) {
    const std::vector<Rect> cover = pending_blocks_.to_rects();
    out.insert(out.end(), cover.begin(), cover.end());
  } else {
    out.insert(out.end(), pending_rects_.begin(), pending_rects_.end());
  }
  pending_blocks_.clear();
  pending_rects_.clear();
  pending_rects_overflow_ = false;
  return true;
}

CaptureResult WindowsCapturer::capture(capture::FramePool& pool, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string error;
  switch (refresh(deadline, error)) {
    case Refresh::kReady:
      break;
    case Refresh::kTemporary:
      return {CaptureStatus::kTemporary, nullptr, error};
    case Refresh::kReinit:
      return {CaptureStatus::kReinit, nullptr, error};
    case Refresh::kGone:
      return {CaptureStatus::kPermanent, nullptr, error};
    case Refresh::kFailed:
      if (!dxgi_ || !fall_back_to_gdi(error, error)) return {CaptureStatus::kTemporary, nullptr, error};
      break;
  }
  // After the duplication was re-created, the damage waits for its first image.
  if (!ready_to_copy()) return {CaptureStatus::kNoChange, nullptr, {}};

  const auto grab_start = std::chrono::steady_clock::now();
  auto lease = pool.acquire(size_);
  if (!lease) return {CaptureStatus::kTemporary, nullptr, "no free frame buffer"};
  capture::Frame& frame = *lease->frame;

  // What the newest picture holds that this buffer lacks: the damage, and
  // where the reused buffer is older than the newest frame.
  BlockMap grabbed = pending_blocks_;
  if (!lease->source) grabbed.add_all();
  BlockMap to_copy = grabbed;
  if (lease->source) to_copy.unite(lease->stale);
  std::string err = copy_out(to_copy.to_rects(), frame);
  if (!err.empty() && dxgi_ && fall_back_to_gdi(err, err)) {
    // GDI grabbed everything anew; its size may differ from DXGI's.
    pool.discard(frame);
    lease.reset();
    lease = pool.acquire(size_);
    if (!lease) return {CaptureStatus::kTemporary, nullptr, "no free frame buffer"};
    grabbed = BlockMap(size_);
    grabbed.add_all();
    err = copy_out(grabbed.to_rects(), *lease->frame);
  }
  capture::Frame& out = *lease->frame;
  if (!err.empty()) {
    pool.discard(out);
    return {CaptureStatus::kTemporary, nullptr, err};
  }

  out.damage_blocks = pending_blocks_;
  out.damage_rects = pending_rects_overflow_ ? pending_blocks_.to_rects() : pending_rects_;
  out.origin = origin();
  out.seq = ++seq_;
  out.captured_at = std::chrono::steady_clock::now();
  out.grab_us = uint32_t(
      std::chrono::duration_cast<std::chrono::microseconds>(out.captured_at - grab_start).count());
  pool.publish(out, grabbed);
  pending_blocks_.clear();
  pending_rects_.clear();
  pending_rects_overflow_ = false;
  return {CaptureStatus::kOk, std::move(lease->frame), {}};
}

}  // namespace voxl::platform::windows
