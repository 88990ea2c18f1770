// Command-line settings. Parsed once at start-up on the main thread, then
// read-only; a Config is a plain value and may be copied to any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/geometry.h"
#include "net/forwarded.h"
#include "platform/platform_defaults.h"
#include "stream/video/motion_choice.h"

namespace voxl::app {

// Which way the clipboard may flow. "in" is viewer to desktop, "out" is
// desktop to viewer.
enum class ClipboardMode { kOff, kIn, kOut, kBoth };
// Which kind of desktop (--backend, Linux): platform::DesktopBackend's values.
enum class BackendName { kAuto, kX11, kWayland, kPortal };

struct FileTransfers {
  bool upload = true;
  bool download = true;
  friend bool operator==(const FileTransfers&, const FileTransfers&) = default;
};

// One --round-windows entry: windows titled `title` get corners of `radius`
// pixels (0 keeps them square even when --round-corners is set).
struct WindowRounding {
  std::string title;
  int radius = 0;
  friend bool operator==(const WindowRounding&, const WindowRounding&) = default;
};

// An IP address and a TCP port to listen on (port 0: any free one).
struct ListenPoint {
  std::string addr;
  int port = 0;
  friend bool operator==(const ListenPoint&, const ListenPoint&) = default;
};

// The user's home folder (platform/user_paths.h), or "" (file transfer off).
std::string default_files_root();

struct Config {
  // Network
  std::string addr = platform::kDefaultListenAddress;
  int port = 6901;
  bool https = false;
  std::string https_cert;  // PEM files; checked readable when https is on
  std::string https_key;
  bool basic_auth = false;
  std::string basic_auth_user = "voxl";
  // From --basic-auth-password, its -file twin or $VOXL_BASIC_AUTH_PASSWORD
  // (likewise for the view-only one), resolved while parsing.
  std::string basic_auth_password;
  std::string basic_auth_viewonly_password;  // empty: no view-only login
  std::string basic_auth_password_file;           // as given; its contents are in the field above
  std::string basic_auth_viewonly_password_file;
  std::vector<std::string> allowed_origins;  // "scheme://host[:port]" or "*"; empty: same origin
  // Host names answered besides IP literals, localhost and the machine's
  // own names; "*" answers any.
  std::vector<std::string> allowed_hosts;
  // Reverse proxies whose X-Forwarded-Proto, -Host and -For are believed.
  std::vector<net::AddressRange> trusted_proxies;
  // The header in which a trusted proxy names the user (--proxy-user-header);
  // empty: none.
  std::string proxy_user_header;
  // --metrics-addr: a second listener for /metrics (and the probes) that
  // needs no credential; none when unset.
  std::optional<ListenPoint> metrics_addr;
  // A fixed access token (--auth-token, --auth-token-file or
  // $VOXL_AUTH_TOKEN); empty: a random one when listening beyond loopback
  // without Basic auth.
  std::string auth_token;
  std::string auth_token_file;  // as given; its contents are in auth_token
  bool insecure_no_auth = false;  // no generated token beyond loopback
  // Named users with password hashes and rights (net/users_file.h); empty:
  // none. Read by UsersWiring, not here.
  std::string users_file;
  // The audit trail (--audit-log); empty: none. Rotated past
  // audit_rotate_mb.
  std::string audit_log;
  int audit_rotate_mb = 64;
  bool audit_journal = false;  // the trail goes to the system's journal instead
  // Recorded sessions (--record-sessions): the folder (empty: none), how
  // long they are kept (0: no limit) and how much room they take at most
  // (0: no limit).
  std::string record_sessions;
  int record_sessions_days = 30;
  int record_sessions_max_gb = 0;
  int record_sessions_min_free_mb = 256;   // stop recording below this free space
  int record_sessions_segment_seconds = 120;  // each segment's length at most
  int max_connections = 256;  // open HTTP and WebSocket connections at once
  // Of those, from one remote address: half, since an agent runs many
  // requests at once and a NAT puts many users behind one address.
  int max_connections_per_address = 128;

  // Video
  int framerate = 60;      // highest frames per second
  // Lowest the rate may drop to, trading frames for a finer quantiser on a
  // slow link (FrameRateGovernor); equal to framerate when locked.
  int framerate_min = 20;
  // How the frame rate is traded against sharpness on a slow link, unless
  // the viewers choose (stream/video/motion_choice.h).
  stream::Motion motion = stream::Motion::kAuto;
  std::string preset = "ultrafast";
  int encoder_threads = 0;  // 0: by picture size and frame rate (encode::auto_encoder_threads)
  int crf = 24;
  int max_kbps = 30000;  // adaptive bitrate ceiling
  int min_kbps = 2000;   // adaptive bitrate floor, <= max_kbps
  int paintover_crf = 16;
  int paintover_burst = 3;  // frames sent at paintover_crf once the screen is still
  int paintover_delay_ms = 150;
  bool paintover_444 = true;   // full-resolution chroma for a still screen, where viewers decode it
  bool adaptive_threads = false;
  int stripes = 1;
  int max_encodes = 2;  // rungs of the encoding ladder at most (stream::Hub)
  int convert_threads = 4;
  int coalesce_us = 500;  // quiet time after damage before capturing (stream::PipelineSettings)

  // Input & clipboard
  ClipboardMode clipboard = ClipboardMode::kBoth;
  int scroll_px_per_notch = 180;
  // Seconds the viewer holding control may idle while another asks for it
  // before control passes on; 0: never.
  int control_timeout = 10;

  // Audio
  bool audio = true;
  std::string audio_device = platform::kDefaultAudioDevice;
  int audio_bitrate = 128000;  // bit/s
  bool microphone = false;
  std::string microphone_fifo;    // Linux; empty: $XDG_RUNTIME_DIR/voxl-mic.fifo
  std::string microphone_device;  // Windows; empty: the first virtual cable

  // Network: TCP's congestion control (--tcp-congestion); nullopt: bbr,
  // quietly the system's where that is not taken.
  std::optional<std::string> tcp_congestion;

  // Files
  FileTransfers file_transfers;
  std::string files_root = default_files_root();
  std::string upload_dir = "Downloads";  // relative to files_root
  int max_upload_mb = 0;                 // 0: no limit
  bool pace_transfers = true;            // downloads yield to the picture on a shared link

  // Agents
  std::string exec;  // shell command run inside the desktop; empty: none
  int max_record_seconds = 300;
  int max_record_mb = 2048;    // disk all recordings may take together
  int record_buffer_seconds = 0;  // the stream kept for /record?last= (0: none)
  int record_buffer_mb = 64;      // memory that buffer may take
  int max_wait_seconds = 300;  // longest /wait timeout (and idle)
  bool a11y = false;           // the accessibility tree (/a11y)

  // Display
  std::string display;       // empty: $DISPLAY, or a private Xvfb when unset
  std::optional<Size> xvfb;  // start a private Xvfb of this size
  BackendName backend = BackendName::kAuto;  // X11 or Wayland (Linux)
  std::optional<Size> wayland;  // start voxl's own headless Wayland compositor of this size
  std::string wayland_user = "nobody";  // who it runs as when voxl is root
  std::optional<Rect> capture_region;
  uint32_t capture_window = 0;
  bool resize = false;        // desktop follows the viewer's window size
  // Desktop pixels per CSS pixel at most when resizing; not given: the
  // display's scaling where it has one (Windows), else kDefaultResizeScale.
  std::optional<double> resize_scale;
  static constexpr double kDefaultResizeScale = 1.5;
  int round_corners = 0;      // radius in pixels for top-level windows; 0: off
  std::vector<WindowRounding> round_windows;

  // Logging
  int stats_seconds = 5;
  std::string log_level = "info";
  bool check_config = false;  // check the settings and files, say so, and exit
};

// Something worth one log line at start that does not stop it.
struct Notice {
  enum class Kind {
    kNotActiveYet,        // a voxl flag whose feature is not built yet
    kIgnoredSelkiesFlag,  // a selkies flag (or SELKIES_ variable) voxl has no use for
    kLooseSecretFile,     // a password or token file others may read
  };
  Kind kind;
  std::string flag;  // as "--dash-spelling"
  std::string text;  // the whole line, starting with the flag
};

// On --help or --version prints to stdout and returns exit_code 0 without a
// config. On a bad value prints "voxl: <error>" to stderr and returns
// exit_code 2, no config and the same text in `error`. Otherwise returns the
// config and the notices the caller should log once (warning level).
struct ParseOutcome {
  std::optional<Config> config;
  int exit_code = 0;
  std::string error;
  std::vector<Notice> notices;
  // The VOXL_ and SELKIES_ variables that set a flag (flag_environment.h).
  std::vector<std::string> from_environment;
};
ParseOutcome parse_command_line(int argc, char** argv);

// "1920x1080" -> Size; nullopt unless both are positive.
std::optional<Size> parse_size(const std::string& text);

}  // namespace voxl::app
