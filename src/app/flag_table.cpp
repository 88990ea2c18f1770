#include "app/flag_table.h"

#include <algorithm>
#include <charconv>

#include "app/flag_values.h"
#include "platform/user_paths.h"

namespace voxl::app {

namespace {

// Framerate: a plain N locks the rate; a range lets it drop to MIN. selkies'
// "N,MIN-MAX" starts at N, and since voxl cannot raise the rate at run time
// yet, N is the ceiling.
bool apply_framerate(const std::string& text, Config& c) {
  const auto spec = parse_range_spec(text, kMinFramerate, kMaxFramerate);
  if (!spec) return false;
  c.framerate = spec->value.value_or(spec->range ? spec->range->max : 0);
  c.framerate_min = spec->range ? spec->range->min : c.framerate;
  return true;
}

// Bitrate: N is the ceiling; MIN-MAX sets floor and ceiling; selkies'
// "N,MIN-MAX" starts at N, which again serves as the ceiling.
bool apply_bitrate(const std::string& text, Config& c) {
  const auto spec = parse_range_spec(text, kMinKbps, kMaxKbps);
  if (!spec) return false;
  if (spec->range) c.min_kbps = spec->range->min;
  c.max_kbps = spec->value.value_or(spec->range ? spec->range->max : 0);
  return true;
}

// CRF: voxl takes one number. The selkies range forms are accepted; a bare
// MIN-MAX keeps the default quality moved into the range.
bool apply_crf(const std::string& text, Config& c) {
  const auto spec = parse_range_spec(text, 0, kMaxCrf);
  if (!spec) return false;
  c.crf = spec->value.value_or(spec->range ? std::clamp(c.crf, spec->range->min, spec->range->max) : 0);
  return true;
}

bool is_absolute_path(std::string_view text) { return platform::is_absolute_path(text); }

// Decimal or 0x hex; 0 is refused because it is the "no window" value.
bool apply_window_id(const std::string& text, uint32_t& field) {
  const bool hex = text.starts_with("0x") || text.starts_with("0X");
  const char* begin = text.data() + (hex ? 2 : 0);
  const char* end = text.data() + text.size();
  uint32_t v = 0;
  const auto r = std::from_chars(begin, end, v, hex ? 16 : 10);
  if (begin == end || r.ec != std::errc{} || r.ptr != end || v == 0) return false;
  field = v;
  return true;
}

// Wraps a parser returning optional<T> into an Apply storing into `field`.
template <class T, class Parse>
FlagSet::Apply storing(T& field, Parse parse) {
  return [&field, parse](const std::string& text) {
    auto v = parse(text);
    if (v) field = static_cast<T>(std::move(*v));
    return v.has_value();
  };
}

// An Apply storing the text itself once `ok` accepts it.
FlagSet::Apply storing_if(std::string& field, bool (*ok)(std::string_view)) {
  return [&field, ok](const std::string& text) {
    if (!ok(text)) return false;
    field = text;
    return true;
  };
}

const char* clipboard_name(ClipboardMode m) {
  switch (m) {
    case ClipboardMode::kOff: return "false";
    case ClipboardMode::kIn: return "in";
    case ClipboardMode::kOut: return "out";
    case ClipboardMode::kBoth: break;
  }
  return "true";
}

// The --help groups, in the order they are declared here (after General,
// which holds --help and --version).

void declare_general(FlagSet& f, Config& c) {
  f.group("General");
  f.boolean("--check-config",
            "check the flags, the environment and the files they name (TLS certificate and key, secrets, the files "
            "root), say what voxl would run with, and exit: 0 when valid, 2 when not",
            c.check_config);
}

void declare_display(FlagSet& f, Config& c) {
  f.group("Display and capture");
  f.text("--display", "NAME", "display to capture: an X display (default $DISPLAY), on Windows an index (0 primary)",
         c.display);
  f.optional_value("--xvfb", "WxH",
                   "run a private Xvfb of this size (also done when DISPLAY is unset)",
                   "1920x1080", "a size such as 1920x1080", [&c](const std::string& text) {
                     c.xvfb = parse_size(text.empty() ? "1920x1080" : text);
                     return c.xvfb.has_value();
                   });
  f.value("--backend", "NAME",
          "auto, x11, wayland or portal (Linux): which desktop to stream; auto takes X11 unless only "
          "WAYLAND_DISPLAY is set, and the desktop portal for a Wayland compositor without wlr-screencopy (GNOME, "
          "KDE); portal always asks the desktop portal",
          "auto", "auto, x11, wayland or portal", storing(c.backend, parse_backend));
  f.optional_value("--wayland", "WxH",
                   "run voxl's own headless Wayland compositor (sway) of this size, --exec's program in it (Linux)",
                   "1920x1080", "a size such as 1920x1080 (or true or false)", [&c](const std::string& text) {
                     if (const auto on = parse_bool(text); on && !text.empty()) {
                       c.wayland = *on ? std::optional<Size>(Size{1920, 1080}) : std::nullopt;
                       return true;
                     }
                     c.wayland = parse_size(text.empty() ? "1920x1080" : text);
                     return c.wayland.has_value();
                   });
  f.text("--wayland-user", "NAME", "when voxl runs as root, the user its own Wayland compositor and --exec run as",
         c.wayland_user);
  f.text("--exec", "CMD", "shell command to run inside the desktop (the private Xvfb or compositor)", c.exec);
  f.value("--capture-region", "X,Y,W,H", "capture only this rectangle", "", "x,y,w,h with w and h > 0",
          storing(c.capture_region, parse_rect));
  f.value("--capture-window", "ID", "capture one window by id", "", "a window id, decimal or 0x hex",
          [&c](const std::string& text) { return apply_window_id(text, c.capture_window); });
  f.boolean("--enable-resize", "the desktop follows the viewer's window size", c.resize);
  f.value("--resize-scale", "X", "most desktop pixels per CSS pixel when resizing, 0.25-4", platform::kDefaultResizeScaleText,
          "a number from 0.25 to 4",
          storing(c.resize_scale, [](const std::string& t) { return parse_decimal(t, 0.25, 4.0); }));
  f.integer("--round-corners", "PX", "corner radius of top-level windows, 0 for square", 0,
            kMaxCornerRadius, c.round_corners);
  f.value("--round-windows", "LIST", "title:radius,... rounds the windows with that title", "none",
          "none or title:radius,... with radius from 0 to 256",
          storing(c.round_windows, parse_window_rounding));
}

void declare_input(FlagSet& f, Config& c) {
  f.group("Input and clipboard");
  f.optional_value("--enable-clipboard", "MODE",
                   "true (both ways), in (to the desktop), out (to the viewer) or false",
                   clipboard_name(c.clipboard), "true, in, out or false (also 1/0, yes/no, on/off)",
                   storing(c.clipboard, parse_clipboard));
  f.integer("--scroll-px-per-notch", "PX", "desktop pixels one wheel notch scrolls", 1, 10000,
            c.scroll_px_per_notch);
  f.integer("--control-timeout", "S",
            "seconds the viewer with control may idle while another asks for it before control passes on; "
            "0: never",
            0, 86400, c.control_timeout);
}

// What a CRF and a bitrate accept, for the voxl names and selkies' alike.
std::string crf_accepts() {
  return "a whole number from 0 to " + std::to_string(kMaxCrf) + " (or selkies' MIN-MAX, N,MIN-MAX)";
}
std::string kbps_accepts() {
  return "kbit/s as N, MIN-MAX or N,MIN-MAX with whole numbers from " + std::to_string(kMinKbps) + " to " +
         std::to_string(kMaxKbps) + " and MIN <= N <= MAX";
}

void declare_video(FlagSet& f, Config& c) {
  f.group("Video and encoding");
  const std::string fps_range = std::to_string(kMinFramerate) + " to " + std::to_string(kMaxFramerate);
  f.value("--framerate", "FPS",
          "highest frames/s, " + std::to_string(kMinFramerate) + "-" + std::to_string(kMaxFramerate) +
              "; MIN-MAX lets it drop to MIN",
          std::to_string(c.framerate) + ", dropping to " + std::to_string(c.framerate_min) +
              " when the link cannot carry the motion sharp",
          "N, MIN-MAX or N,MIN-MAX with whole numbers from " + fps_range + " and MIN <= N <= MAX",
          [&c](const std::string& text) { return apply_framerate(text, c); });
  f.value("--motion", "auto|smooth|sharp",
          "on a slow link: smooth keeps the full frame rate, sharp trades frames for sharper ones (text), auto "
          "judges the content; a viewer may choose in its panel",
          stream::motion_name(c.motion), "auto, smooth or sharp", [&c](const std::string& text) {
            const auto m = stream::parse_motion(text);
            if (m) c.motion = *m;
            return m.has_value();
          });
  const std::string presets = "ultrafast superfast veryfast faster fast medium slow slower veryslow placebo";
  f.value("--preset", "NAME", "x264 preset: " + presets, c.preset, "one of " + presets,
          storing_if(c.preset, is_x264_preset));
  f.value("--encoder-threads", "N", "x264 sliced threads, 1-64; 0 picks by picture size and frame rate",
          "0: one per 1920x1080 at 30 fps, at most min(4, CPUs)", "a whole number from 0 to 64",
          storing(c.encoder_threads, [](const std::string& t) { return parse_int(t, 0, 64); }));
  f.value("--crf", "N", "base quality, 0 best to 51 worst", std::to_string(c.crf), crf_accepts(),
          [&c](const std::string& text) { return apply_crf(text, c); });
  f.value("--max-kbps", "KBPS", "bitrate ceiling in kbit/s; MIN-MAX also sets --min-kbps",
          std::to_string(c.max_kbps), kbps_accepts(), [&c](const std::string& text) { return apply_bitrate(text, c); });
  // Converted after every other flag: given together, --min-kbps wins over
  // the floor of a MIN-MAX in --max-kbps or --video-bitrate.
  f.integer("--min-kbps", "KBPS", "bitrate floor in kbit/s, at most --max-kbps", kMinKbps,
            kMaxKbps, c.min_kbps);
  f.apply_last("--min-kbps");
  f.integer("--paintover-crf", "N", "quality that sharpens a screen gone still", 0, kMaxCrf,
            c.paintover_crf);
  f.integer("--paintover-burst", "N", "frames sent at --paintover-crf", 1, 30, c.paintover_burst);
  f.integer("--paintover-delay-ms", "MS", "stillness before sharpening", 0, 10000, c.paintover_delay_ms);
  f.boolean("--paintover-444", "paint a still screen over in 4:4:4 where every viewer decodes it",
            c.paintover_444);
  f.boolean("--adaptive-threads", "one encoder thread; more only under sustained heavy motion",
            c.adaptive_threads);
  f.integer("--stripes", "N", "code the picture as N horizontal bands, each its own stream on its own thread (no recordings above 1)", 1, 16,
            c.stripes);
  f.integer("--max-encodes", "N",
            "encode up to N streams of the desktop at once, one per group of viewers with similar links, so a slow "
            "viewer does not lower a fast one's picture (1: one encode for everyone)",
            1, 4, c.max_encodes);
  f.integer("--convert-threads", "N", "threads converting pixels for the encoder", 1, 64,
            c.convert_threads);
  f.integer("--coalesce-us", "US", "capture once screen changes have stopped this long (0: at once)", 0, 100000,
            c.coalesce_us);
}

void declare_audio(FlagSet& f, Config& c) {
  f.group("Audio");
  f.boolean("--audio-enabled", "stream desktop audio", c.audio);
  f.text("--audio-device-name", "NAME", "audio source to capture", c.audio_device);
  f.integer("--audio-bitrate", "BPS", "Opus bitrate in bit/s", 6000, 510000, c.audio_bitrate);
  f.boolean("--microphone-enabled", "play the viewer's microphone into the desktop", c.microphone);
  f.value("--microphone-fifo", "FILE", "FIFO the microphone audio is written to", "$XDG_RUNTIME_DIR/voxl-mic.fifo",
          "an absolute path",
          storing_if(c.microphone_fifo, is_absolute_path));
}

void declare_server(FlagSet& f, Config& c) {
  f.group("Server and TLS");
  f.value("--addr", "ADDR", "address to listen on", c.addr, "an IPv4 or IPv6 address or a host name",
          storing(c.addr, parse_listen_address));
  f.integer("--port", "PORT", "TCP port to listen on; 0 picks a free one (logged at start)", 0, 65535, c.port);
  f.boolean("--enable-https", "serve HTTPS (needs --https-cert, --https-key)", c.https);
  f.text("--https-cert", "FILE", "TLS certificate chain (PEM)", c.https_cert);
  f.text("--https-key", "FILE", "TLS private key (PEM)", c.https_key);
  f.value("--trusted-proxies", "LIST",
          "reverse proxies (addresses or ranges: 127.0.0.1,10.0.0.0/8,::1) whose X-Forwarded-Proto, -Host and -For "
          "headers say what the browser used and who it is; from any other peer they are ignored",
          "none", "comma-separated IP addresses or ADDR/BITS ranges such as 127.0.0.1,10.0.0.0/8",
          storing(c.trusted_proxies, net::parse_address_ranges));
  f.value("--proxy-user-header", "NAME",
          "the header in which a trusted proxy (--trusted-proxies) names the signed-in user, such as "
          "X-Forwarded-User or X-Auth-Request-User; the user must be in --users-file, which gives the rights. "
          "The proxy must set it on every request, replacing any a client sent",
          "none", "an HTTP header name such as X-Forwarded-User",
          [&c](const std::string& text) {
            if (!is_header_name(text)) return false;
            c.proxy_user_header = text;
            return true;
          });
  f.value("--tcp-congestion", "NAME",
          "TCP congestion control for voxl's connections: bbr keeps its rate through random loss where cubic, "
          "most systems' default, falls; cubic, reno or another the kernel offers; system for the system's. "
          "When the system does not take it, voxl says why at start and uses the system's",
          "bbr", "a name such as bbr or cubic (letters, digits, _ and -, at most 15), or system",
          [&c](const std::string& text) {
            if (!is_congestion_control_name(text)) return false;
            c.tcp_congestion = text;
            return true;
          });
}

void declare_access(FlagSet& f, Config& c) {
  f.group("Access and credentials");
  f.boolean("--enable-basic-auth", "ask for user and password (needs a password, below)", c.basic_auth);
  f.text("--basic-auth-user", "NAME", "user name for basic auth", c.basic_auth_user);
  f.text("--basic-auth-password", "TEXT",
         "password for basic auth (visible to local users in the process list: prefer the file or "
         "$VOXL_BASIC_AUTH_PASSWORD)",
         c.basic_auth_password);
  f.text("--basic-auth-password-file", "FILE", "read the basic auth password from the first line of FILE",
         c.basic_auth_password_file);
  f.text("--basic-auth-viewonly-password", "TEXT",
         "second password that may watch but not control (or $VOXL_BASIC_AUTH_VIEWONLY_PASSWORD)",
         c.basic_auth_viewonly_password);
  f.text("--basic-auth-viewonly-password-file", "FILE", "read the view-only password from the first line of FILE",
         c.basic_auth_viewonly_password_file);
  f.text("--auth-token", "TEXT",
         "fixed access token, also on loopback (or $VOXL_AUTH_TOKEN); default: a random one, logged in the "
         "address to open, when listening beyond loopback without basic auth",
         c.auth_token);
  f.text("--auth-token-file", "FILE", "read the access token from the first line of FILE", c.auth_token_file);
  f.text("--users-file", "FILE",
         "named users who sign in with Basic auth, with their password hashes and rights (voxl hash-password "
         "writes the lines); read again on SIGHUP and when it changes",
         c.users_file);
  f.text("--audit-log", "FILE",
         "append one JSON line per event (sign-ins and their failures, viewers connecting and leaving, control "
         "handed over, clipboard transfers, agents' actions, uploads, downloads and recordings), each chained to "
         "the one before by a hash (voxl audit-verify FILE checks it)",
         c.audit_log);
  f.boolean("--audit-journal",
            "send the audit trail's chained lines to the systemd journal instead of a file (journalctl -t voxl-audit)",
            c.audit_journal);
  f.integer("--audit-rotate-mb", "MB", "rotate the audit log past this size (FILE.1 ... FILE.10 kept)", 1, 1 << 20,
            c.audit_rotate_mb);
  f.text("--record-sessions", "DIR",
         "while anyone watches, record the stream they get into DIR (segments of MP4, no second encode) with the "
         "session's events; admins play them back at sessions.html",
         c.record_sessions);
  f.integer("--record-sessions-days", "N", "remove recorded sessions older than N days (0: keep them)", 0, 36500,
            c.record_sessions_days);
  f.integer("--record-sessions-max-gb", "GB",
            "keep recorded sessions within GB gigabytes, removing the oldest first (0: no limit)", 0, 1 << 20,
            c.record_sessions_max_gb);
  f.integer("--record-sessions-min-free-mb", "MB",
            "stop recording sessions when the folder's disk has less than MB megabytes free", 0, 1 << 20,
            c.record_sessions_min_free_mb);
  f.integer("--record-sessions-segment-seconds", "N",
            "end each segment of a recorded session after N seconds (a crash loses at most the segment being "
            "written)",
            5, 3600, c.record_sessions_segment_seconds);
  f.boolean("--insecure-no-auth", "beyond loopback without basic auth, need no token: anyone who reaches the "
            "port controls the desktop", c.insecure_no_auth);
  f.value("--allowed-origins", "LIST",
          "origins that may connect: https://host[:port],... or *; empty: same origin only",
          "", "comma-separated origins such as https://example.com, or *",
          storing(c.allowed_origins, parse_origins));
  f.value("--allowed-hosts", "LIST",
          "Host names answered besides IP addresses, localhost and this machine's names: name,... or * (any)",
          "", "comma-separated host names such as desk.example.com, or *",
          storing(c.allowed_hosts, parse_allowed_hosts));
}

void declare_limits(FlagSet& f, Config& c) {
  f.group("Limits");
  f.integer("--max-connections", "N",
            "open HTTP and WebSocket connections at most; past it a new one is answered 503 with Retry-After and "
            "closed",
            1, kMaxConnections, c.max_connections);
  f.integer("--max-connections-per-address", "N",
            "open connections at most from one remote address (agents run many requests at once, and a NAT puts "
            "many users behind one address)",
            1, kMaxConnections, c.max_connections_per_address);
}

void declare_agents(FlagSet& f, Config& c) {
  f.group("Agents and recordings");
  f.integer("--max-record-seconds", "S", "longest recording (/record)", 1, 86400, c.max_record_seconds);
  f.integer("--max-record-mb", "MB", "disk space all recordings may take together; one that reaches it ends", 1,
            kMaxRecordMb, c.max_record_mb);
  f.integer("--record-buffer-seconds", "S",
            "seconds of the stream kept in memory for /record?last= (the encoder then runs whenever the screen "
            "changes, also with no viewer, with a key frame at least every 2 s while it does, and no 4:4:4 "
            "paintover); 0 for off",
            0, 600, c.record_buffer_seconds);
  f.integer("--record-buffer-mb", "MB",
            "memory --record-buffer-seconds may take at most; past it the oldest seconds go first", 1, 1024,
            c.record_buffer_mb);
  f.integer("--max-wait-seconds", "S", "longest /wait timeout and idle", 1, 86400, c.max_wait_seconds);
  f.boolean("--a11y",
            "the accessibility tree for agents (/a11y); with voxl's own desktop or --exec it starts the "
            "accessibility bus and asks the program's toolkit to publish its tree",
            c.a11y);
}

void declare_files(FlagSet& f, Config& c) {
  f.group("File transfer");
  f.value("--file-transfers", "MODE", "upload, download, both, or none", "upload,download",
          "upload, download, both, none, or upload,download",
          storing(c.file_transfers, parse_file_transfers));
  f.value("--files-root", "DIR", "folder the Files panel can see", "$HOME", "an absolute path",
          storing_if(c.files_root, is_absolute_path));
  f.value("--upload-dir", "DIR", "folder under --files-root that uploads go into", c.upload_dir,
          "a relative path with / between folders and no empty, . or .. parts",
          storing_if(c.upload_dir, is_contained_relative_path));
  f.integer("--max-upload-mb", "MB", "largest accepted upload, 0 for no limit", 0, 1 << 20,
            c.max_upload_mb);
  f.boolean("--pace-transfers", "downloads to a viewer's address take only what the picture leaves of the link",
            c.pace_transfers);
}

void declare_logging(FlagSet& f, Config& c) {
  f.group("Logs and metrics");
  f.value("--log-level", "LEVEL", "trace, debug, info, warn or error", c.log_level,
          "trace, debug, info, warn or error",
          storing_if(c.log_level, is_log_level));
  f.integer("--stats-seconds", "S", "seconds between capture statistics lines", 1, 3600, c.stats_seconds);
  f.value("--metrics-addr", "ADDR:PORT",
          "also serve /metrics, /healthz and /readyz here, without credentials (for Prometheus on a private "
          "address; 0 as the port picks a free one, logged at start)",
          "none: /metrics on the main port, behind its credentials", "ADDR:PORT with an IP address, [v6]:PORT for IPv6",
          storing(c.metrics_addr, parse_listen_point));
}

void declare_windows(FlagSet& f, Config& c) {
  f.group("Windows only");
  f.text("--microphone-device", "NAME",
         "Windows: output device (name or prefix) to play the microphone into; default the first virtual cable",
         c.microphone_device);
}

// selkies' names for voxl settings: one setting with two names, so given
// together they must agree (config.cpp).
void declare_aliases(FlagSet& f, Config& c) {
  f.group("Compatibility aliases");
  f.value("--video-crf", "N", "same as --crf (selkies name)", "", crf_accepts(),
          [&c](const std::string& text) { return apply_crf(text, c); });
  f.value("--video-bitrate", "KBPS", "same as --max-kbps (selkies name)", "", kbps_accepts(),
          [&c](const std::string& text) { return apply_bitrate(text, c); });
}

}  // namespace

void declare_flags(FlagSet& flags, Config& config) {
  declare_general(flags, config);
  declare_display(flags, config);
  declare_input(flags, config);
  declare_video(flags, config);
  declare_audio(flags, config);
  declare_server(flags, config);
  declare_access(flags, config);
  declare_limits(flags, config);
  declare_agents(flags, config);
  declare_files(flags, config);
  declare_logging(flags, config);
  declare_windows(flags, config);
  declare_aliases(flags, config);
}

}  // namespace voxl::app
