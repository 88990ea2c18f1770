#include "app/files_wiring.h"

#include "app/access_wiring.h"
#include "files/files_service.h"
#include "platform/file_jail.h"

namespace voxl::app {

FilesWiring::FilesWiring(const Config& config, boost::asio::io_context& io, const Logger& log) {
  const FileTransfers& t = config.file_transfers;
  if (!t.upload && !t.download) return;
  if (config.files_root.empty()) {
    log->warn("file transfer is off: there is no home folder to serve; name a folder with --files-root");
    return;
  }
  std::string error;
  auto jail = platform::FileJail::open(config.files_root, error);
  if (!jail) {
    log->warn("file transfer is off: --files-root {}", error);
    return;
  }
  if (auto named = platform::FileJail::check_names(config.upload_dir); t.upload && !named) {
    log->warn("file transfer is off: --upload-dir {}", named.message);
    return;
  }
  files::FilesOptions o;
  o.upload = t.upload;
  o.download = t.download;
  o.upload_dir = config.upload_dir;
  o.max_upload_bytes = uint64_t(config.max_upload_mb) << 20;
  o.make_id = random_access_token;
  log->info("file transfer: {} beneath {}{}", t.upload && t.download ? "uploads and downloads" : t.upload ? "uploads" : "downloads",
            config.files_root, t.upload ? ", uploads into " + config.upload_dir : "");
  service_ = std::make_unique<files::FilesService>(io, std::move(jail), std::move(o), log);
}

FilesWiring::~FilesWiring() = default;

net::EndpointTable FilesWiring::endpoints() { return service_ ? service_->endpoints() : net::EndpointTable{}; }

}  // namespace voxl::app
