#include "media_probe.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <fstream>

#include <nlohmann/json.hpp>

namespace voxl::testing {

namespace {

// Runs a shell command; its stdout and stderr together, and its exit status.
std::string run(const std::string& cmd, int& status) {
  std::string out;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) {
    status = -1;
    return "popen failed";
  }
  std::array<char, 4096> buf;
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  const int s = ::pclose(p);
  status = WIFEXITED(s) ? WEXITSTATUS(s) : -1;
  return out;
}

}  // namespace

Mp4Probe probe_mp4(const std::string& mp4) {
  Mp4Probe r;
  char path[] = "/tmp/voxl-test-XXXXXX.mp4";
  const int fd = ::mkstemps(path, 4);
  if (fd < 0) {
    r.error = "mkstemps failed";
    return r;
  }
  ::close(fd);
  std::ofstream(path, std::ios::binary).write(mp4.data(), std::streamsize(mp4.size()));
  int status = 0;
  const std::string out = run(std::string("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                          "stream=codec_name,width,height,nb_read_frames:format=duration -of json ") +
                                  path,
                              status);
  try {
    const auto j = nlohmann::json::parse(out);
    const auto& s = j.at("streams").at(0);
    r.codec = s.at("codec_name").get<std::string>();
    r.width = s.at("width").get<int>();
    r.height = s.at("height").get<int>();
    r.frames = std::stoi(s.at("nb_read_frames").get<std::string>());
    r.duration = std::stod(j.at("format").at("duration").get<std::string>());
  } catch (const std::exception& e) {
    r.error = std::string("ffprobe (status ") + std::to_string(status) + "): " + e.what() + ": " + out;
  }
  // The first frame's picture type, as the decoder sees it.
  const std::string first = run(std::string("ffprobe -v error -select_streams v:0 -read_intervals %+#1 "
                                            "-show_entries frame=key_frame,pict_type -of csv=p=0 ") +
                                    path,
                                status);
  r.first_frame_key = status == 0 && first.rfind("1,I", 0) == 0;
  // Every frame at its own time (the clip has a variable frame rate): only
  // decoding problems are reported.
  r.decode_log = run(std::string("ffmpeg -nostdin -v error -i ") + path + " -fps_mode passthrough -enc_time_base -1 -f null -", r.decode_status);
  ::unlink(path);
  return r;
}

DecodedPng decode_png(const std::string& png) {
  DecodedPng d;
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, png.data(), png.size())) {
    d.error = image.message;
    return d;
  }
  image.format = PNG_FORMAT_RGB;
  std::vector<uint8_t> rgb(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, rgb.data(), 0, nullptr)) {
    d.error = image.message;
    return d;
  }
  d.size = {int(image.width), int(image.height)};
  d.rgb.resize(size_t(d.size.area()));
  for (size_t i = 0; i < d.rgb.size(); ++i)
    d.rgb[i] = uint32_t(rgb[i * 3]) << 16 | uint32_t(rgb[i * 3 + 1]) << 8 | rgb[i * 3 + 2];
  return d;
}

}  // namespace voxl::testing
