#include "stream/video/picture_store.h"

namespace voxl::stream {

PictureStore::PictureStore(int convert_threads, encode::ColourRange full_chroma_range)
    : converter_(convert_threads), full_range_(full_chroma_range) {}

bool PictureStore::take(const capture::Frame& frame, std::vector<Rect>& damage) {
  const Size want = encode::encodable_size(frame.size());
  if (want.empty()) return false;
  bool resized = false;
  if (image_.size() != want) {
    image_ = encode::I420Image(want);
    damage.assign(1, Rect::from_size(want));
    resized = true;
  }
  converter_.convert(frame, damage, image_);
  return resized;
}

const encode::I420Image& PictureStore::full_chroma(const capture::Frame& source, bool whole,
                                                   std::span<const Rect> damage) {
  if (image444_.size() != image_.size()) {
    image444_ = encode::I420Image(image_.size(), encode::ChromaFormat::k444, full_range_);
    whole = true;
  }
  const Rect all = Rect::from_size(image444_.size());
  converter_.convert(source, whole ? std::span<const Rect>(&all, 1) : damage, image444_);
  return image444_;
}

bool PictureStore::last_is_whole() const {
  return last_ && encode::encodable_size(last_->size()) == image_.size();
}

}  // namespace voxl::stream
