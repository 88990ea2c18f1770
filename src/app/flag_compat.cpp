#include "app/flag_compat.h"

#include <algorithm>
#include <array>

namespace voxl::app {

namespace {

// Features not built yet, one row per flag. Delete the rows of a feature in
// the change that makes it work; nothing else needs to change.
// Every flag of the seed's table works now: none is pending.
constexpr std::array<PendingFlag, 0> kPendingFlags{};

// Every selkies and selkies-gstreamer flag except those voxl also takes
// (addr, port, framerate, video bitrate and crf, clipboard, audio, resize,
// microphone, file transfers, basic auth, allowed origins, https).
constexpr std::array kIgnoredSelkiesFlags = std::to_array<std::string_view>({
    "app-ready-file", "app-wait-ready", "app-wayland-display", "audio-channels",
    "audio-frame-duration-ms", "audio-packetloss-percent", "audio-redundancy",
    "audio-redundancy-distance", "auto-gpu", "backpressure-queue-size", "cert-reload-interval",
    "cloudflare-turn-api-token", "cloudflare-turn-token-id", "command-enabled",
    "computer-use-bind", "congestion-control", "cursor-size", "debug", "debug-cursors",
    "enable-binary-clipboard", "enable-cloudflare-turn", "enable-collab", "enable-cursors",
    "enable-dual-mode", "enable-metrics-http", "enable-player2", "enable-player3",
    "enable-player4", "enable-rate-control", "enable-shared", "enable-sharing",
    "enable-webrtc-statistics", "encode-dri", "encoder", "file-manager-path", "file-transfer-cc",
    "file-transfer-limit-mbps", "force-aligned-resolution", "gamepad-enabled", "gpu-id",
    "is-manual-resolution-mode", "jpeg-quality", "js-socket-path", "json-config",
    "keyframe-distance", "keyframe-interval", "manual-height", "manual-width", "master-token",
    "metrics-http-port", "mode", "paint-over-jpeg-quality", "rate-control-mode",
    "recording-socket", "render-dri", "rtc-config-json", "run-after-connect",
    "run-after-disconnect", "scaling-dpi", "second-screen", "stun-host", "stun-port", "subfolder",
    "turn-host", "turn-password", "turn-port", "turn-protocol", "turn-rest-api-key",
    "turn-rest-protocol-header", "turn-rest-tls-header", "turn-rest-uri", "turn-rest-username",
    "turn-rest-username-auth-header", "turn-shared-secret", "turn-tls", "turn-username",
    "ui-show-core-buttons", "ui-show-logo", "ui-show-sidebar", "ui-sidebar-show-apps",
    "ui-sidebar-show-audio-settings", "ui-sidebar-show-clipboard", "ui-sidebar-show-files",
    "ui-sidebar-show-fullscreen", "ui-sidebar-show-gamepads", "ui-sidebar-show-gaming-mode",
    "ui-sidebar-show-keyboard-button", "ui-sidebar-show-screen-settings",
    "ui-sidebar-show-sharing", "ui-sidebar-show-shortcuts", "ui-sidebar-show-soft-buttons",
    "ui-sidebar-show-stats", "ui-sidebar-show-trackpad", "ui-sidebar-show-video-settings",
    "ui-title", "uinput-gamepad", "uinput-mouse-socket", "unix-socket", "use-browser-cursors",
    "use-cpu", "use-css-scaling", "use-paint-over-quality", "video-fullcolor", "video-max-qp",
    "video-min-qp", "video-packetloss-percent", "video-paintover-burst-frames",
    "video-paintover-crf", "video-streaming-mode", "watermark-location", "watermark-path",
    "wayland-host-display", "wayland-socket-index", "web-root", "webrtc-pacer",
    "webrtc-public-ip", "webrtc-statistics-dir",
});

// selkies' own flags that voxl shares: listen, TLS and login, the video's
// rate and quality, clipboard, sound, resizing and files, and Wayland (voxl
// takes selkies' true/false for --wayland besides a size).
constexpr std::string_view kSelkiesFlagsWithVoxlMeaning[] = {
    "addr", "port", "enable-https", "https-cert", "https-key", "enable-basic-auth", "basic-auth-user",
    "basic-auth-password", "framerate", "video-crf", "video-bitrate", "enable-clipboard", "audio-enabled",
    "audio-bitrate", "audio-device-name", "enable-resize", "file-transfers", "upload-dir", "microphone-enabled",
    "allowed-origins", "wayland",
};

std::string normalise_one(std::string arg) {
  const size_t name_end = std::min(arg.find('='), arg.size());
  std::replace(arg.begin() + 2, arg.begin() + static_cast<std::ptrdiff_t>(name_end), '_', '-');
  return arg;
}

}  // namespace

std::vector<std::string> normalise_flag_spelling(int argc, const char* const* argv) {
  std::vector<std::string> out;
  bool options_ended = false;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") options_ended = true;
    const bool is_long_flag = i > 0 && !options_ended && arg.size() > 2 && arg.starts_with("--");
    if (!is_long_flag) {
      out.push_back(std::move(arg));
      continue;
    }
    // CLI11 reads "--a=" as a flag missing its value; an explicit empty
    // value ("--allowed-origins=") has to arrive as its own argument.
    const bool empty_value = arg.ends_with('=') && arg.find('=') == arg.size() - 1;
    out.push_back(normalise_one(std::move(arg)));
    if (empty_value) {
      out.back().pop_back();
      out.emplace_back();
    }
  }
  return out;
}

std::span<const PendingFlag> pending_flags() { return kPendingFlags; }

std::span<const std::string_view> ignored_selkies_flags() { return kIgnoredSelkiesFlags; }

std::span<const std::string_view> selkies_flags_with_voxl_meaning() { return kSelkiesFlagsWithVoxlMeaning; }

}  // namespace voxl::app
