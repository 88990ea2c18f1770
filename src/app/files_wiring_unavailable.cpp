// Builds without file transfer (Windows, until its file jail exists): the
// flags are accepted, and asking for transfers says they are not here.
#include "app/files_wiring.h"

namespace voxl::files {
class FilesService {};
}  // namespace voxl::files

namespace voxl::app {

FilesWiring::FilesWiring(const Config& config, boost::asio::io_context&, const Logger& log) {
  if (config.file_transfers.upload || config.file_transfers.download)
    log->info("file transfer is not available in this build of voxl (Windows: not yet); the Files panel stays hidden");
}

FilesWiring::~FilesWiring() = default;

net::EndpointTable FilesWiring::endpoints() { return {}; }

}  // namespace voxl::app
