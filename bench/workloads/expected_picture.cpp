#include "expected_picture.h"

#include "scene_picture.h"
#include "texture_picture.h"

namespace voxl::bench {

namespace {

class ExpectedScene final : public ExpectedPicture {
 public:
  ExpectedScene(int w, int h, bool fullscreen) : scene_(w, h, fullscreen) {}
  void render(uint32_t counter, uint32_t* out) override { scene_.render(counter, out); }

 private:
  ScenePicture scene_;
};

class ExpectedTexture final : public ExpectedPicture {
 public:
  ExpectedTexture(int w, int h) : texture_(w, h) {}
  void render(uint32_t counter, uint32_t* out) override { texture_.render(counter, out, texture_.width()); }

 private:
  TexturePicture texture_;
};

}  // namespace

std::unique_ptr<ExpectedPicture> make_expected_picture(const std::string& workload, int width, int height) {
  if (width <= 0 || height <= 0) return nullptr;
  if (workload == "animation" || workload == "fullscreen")
    return std::make_unique<ExpectedScene>(width, height, workload == "fullscreen");
  if (workload == "texture") return std::make_unique<ExpectedTexture>(width, height);
  return nullptr;
}

}  // namespace voxl::bench
