// The fuzz targets without libFuzzer: one program for every target (their
// entries named by fuzz_target.h, listed in replay_targets.h), built by the
// ordinary test build (gcc, ASan; UBSan on the libraries of voxl it links),
// that runs every seed of the named target's corpus and then a fixed
// number of inputs made from them by random edits (bit flips, bytes set,
// inserted, deleted or repeated, dictionary words, two seeds spliced).
// Deterministic: the same seed makes the same inputs. It finds what the
// sanitizers and the targets' own checks catch on inputs near the seeds;
// coverage-guided search is scripts/fuzz --long's (clang, libFuzzer).
//
//   voxl-fuzz-replay TARGET [--runs N] [--seed S] [--dict FILE] CORPUS_DIR
//   voxl-fuzz-replay --list
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "replay_targets.h"

namespace {

using Bytes = std::vector<uint8_t>;
constexpr size_t kMaxInput = 1 << 16;

Bytes read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  Bytes b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (b.size() > kMaxInput) b.resize(kMaxInput);
  return b;
}

// The words of a libFuzzer dictionary: the quoted part of each line, with
// \\, \" and \xNN undone.
std::vector<Bytes> read_dictionary(const std::string& path) {
  std::vector<Bytes> words;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const size_t open = line.find('"'), close = line.rfind('"');
    if (line.empty() || line[0] == '#' || open == std::string::npos || close <= open) continue;
    Bytes w;
    for (size_t i = open + 1; i < close; ++i) {
      if (line[i] == '\\' && i + 1 < close) {
        if (line[i + 1] == 'x' && i + 3 < close) {
          w.push_back(uint8_t(std::strtoul(line.substr(i + 2, 2).c_str(), nullptr, 16)));
          i += 3;
        } else {
          w.push_back(uint8_t(line[++i]));
        }
      } else {
        w.push_back(uint8_t(line[i]));
      }
    }
    if (!w.empty()) words.push_back(std::move(w));
  }
  return words;
}

class Mutator {
 public:
  Mutator(uint64_t seed, const std::vector<Bytes>& seeds, const std::vector<Bytes>& words)
      : random_(seed), seeds_(seeds), words_(words) {}

  Bytes next() {
    Bytes b = seeds_.empty() ? Bytes{} : seeds_[below(seeds_.size())];
    const int edits = 1 + int(below(4));
    for (int i = 0; i < edits; ++i) edit(b);
    if (b.size() > kMaxInput) b.resize(kMaxInput);
    return b;
  }

 private:
  size_t below(size_t n) { return n == 0 ? 0 : size_t(random_() % n); }

  void edit(Bytes& b) {
    switch (below(7)) {
      case 0:  // flip a bit
        if (!b.empty()) b[below(b.size())] ^= uint8_t(1u << below(8));
        break;
      case 1:  // set a byte, often to an edge value
        if (!b.empty()) {
          static constexpr uint8_t kEdges[] = {0, 1, 0x7f, 0x80, 0xff, '0', '9', '-', '"', '\\', '/', '%'};
          b[below(b.size())] = below(2) ? kEdges[below(sizeof kEdges)] : uint8_t(random_());
        }
        break;
      case 2: {  // insert random bytes
        const size_t at = below(b.size() + 1), n = 1 + below(8);
        for (size_t i = 0; i < n; ++i) b.insert(b.begin() + long(at), uint8_t(random_()));
        break;
      }
      case 3:  // delete a range
        if (!b.empty()) {
          const size_t at = below(b.size()), n = 1 + below(std::min<size_t>(16, b.size() - at));
          b.erase(b.begin() + long(at), b.begin() + long(at + n));
        }
        break;
      case 4:  // repeat a range
        if (!b.empty() && b.size() < kMaxInput / 2) {
          const size_t at = below(b.size()), n = 1 + below(std::min<size_t>(64, b.size() - at));
          const Bytes part(b.begin() + long(at), b.begin() + long(at + n));
          for (size_t k = 1 + below(8); k > 0; --k) b.insert(b.begin() + long(at), part.begin(), part.end());
        }
        break;
      case 5:  // a dictionary word
        if (!words_.empty()) {
          const Bytes& w = words_[below(words_.size())];
          b.insert(b.begin() + long(below(b.size() + 1)), w.begin(), w.end());
        }
        break;
      default:  // the head of this input and the tail of another seed
        if (!seeds_.empty()) {
          const Bytes& other = seeds_[below(seeds_.size())];
          b.resize(below(b.size() + 1));
          b.insert(b.end(), other.begin() + long(below(other.size() + 1)), other.end());
        }
        break;
    }
  }

  std::mt19937_64 random_;
  const std::vector<Bytes>& seeds_;
  const std::vector<Bytes>& words_;
};

int usage(const char* program) {
  std::fprintf(stderr, "usage: %s TARGET [--runs N] [--seed S] [--dict FILE] CORPUS_DIR\n       %s --list\n", program,
               program);
  return 2;
}

const voxl::fuzz::ReplayTarget* find_target(std::string_view name) {
  for (const auto& t : voxl::fuzz::replay_targets())
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage(argv[0]);
  if (std::string_view(argv[1]) == "--list") {
    for (const auto& t : voxl::fuzz::replay_targets()) std::printf("%.*s\n", int(t.name.size()), t.name.data());
    return 0;
  }
  const voxl::fuzz::ReplayTarget* target = find_target(argv[1]);
  if (!target) {
    std::fprintf(stderr, "%s: no fuzz target '%s' (--list names them)\n", argv[0], argv[1]);
    return 2;
  }
  long runs = 2000;
  uint64_t seed = 1;
  std::string dict, corpus;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::strtol(argv[++i], nullptr, 10);
    else if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--dict" && i + 1 < argc) dict = argv[++i];
    else if (corpus.empty() && a[0] != '-') corpus = a;
    else return usage(argv[0]);
  }
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(corpus, ec))
    if (e.is_regular_file()) files.push_back(e.path());
  if (ec || files.empty()) {
    std::fprintf(stderr, "%s: no seeds in '%s'%s\n", argv[0], corpus.c_str(), ec ? (": " + ec.message()).c_str() : "");
    return 2;
  }
  std::sort(files.begin(), files.end());
  if (target->initialize) target->initialize(&argc, &argv);
  std::vector<Bytes> seeds;
  for (const auto& f : files) {
    seeds.push_back(read_file(f));
    target->one_input(seeds.back().data(), seeds.back().size());
  }
  const std::vector<Bytes> words = dict.empty() ? std::vector<Bytes>{} : read_dictionary(dict);
  Mutator mutate(seed, seeds, words);
  for (long i = 0; i < runs; ++i) {
    const Bytes input = mutate.next();
    target->one_input(input.data(), input.size());
  }
  std::printf("%s: %zu seeds and %ld edited inputs, %zu dictionary words: no failure\n", argv[1], seeds.size(), runs,
              words.size());
  return 0;
}
