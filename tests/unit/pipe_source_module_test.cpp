// PipeSourceModule against a stand-in `pactl` (a shell script first on
// PATH that keeps its modules in a file), so no PulseAudio is needed: a
// load asked for while another runs must not load a second module, and
// whatever voxl loaded is unloaded when it goes.
#include "platform/pulse/pipe_source_module.h"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace voxl::platform::pulse {
namespace VOXL_TEST_FILE {

namespace fs = std::filesystem;

Logger null_logger() {
  return std::make_shared<spdlog::logger>("pipe-source-test", std::make_shared<spdlog::sinks::null_sink_mt>());
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class PipeSourceModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string t = (fs::temp_directory_path() / "voxl-pactl-XXXXXX").string();
    ASSERT_NE(mkdtemp(t.data()), nullptr);
    dir_ = t;
    fs::create_directory(dir_ + "/bin");
    // module indexes are the stand-in's pid: two loads at once never share one.
    // load-module takes its time, as a busy server does, so a second load
    // asked for meanwhile overlaps it.
    const std::string script = dir_ + "/bin/pactl";
    std::ofstream(script) << "#!/bin/sh\n"
                             "state='"
                          << dir_ << "'\n"
                                     "echo \"$*\" >> \"$state/calls\"\n"
                                     "case \"$1\" in\n"
                                     "  list) cat \"$state/modules\" 2>/dev/null ;;\n"
                                     "  load-module)\n"
                                     "    sleep 0.5\n"
                                     "    printf '%s\\tmodule-pipe-source\\t%s\\n' $$ \"$*\" >> \"$state/modules\"\n"
                                     "    echo $$ ;;\n"
                                     "  unload-module)\n"
                                     "    grep -v \"^$2\t\" \"$state/modules\" > \"$state/modules.new\"\n"
                                     "    mv \"$state/modules.new\" \"$state/modules\" ;;\n"
                                     "esac\n";
    ASSERT_EQ(chmod(script.c_str(), 0755), 0);
    const char* path = std::getenv("PATH");
    old_path_ = path ? path : "/usr/bin:/bin";
    setenv("PATH", (dir_ + "/bin:" + old_path_).c_str(), 1);
  }
  void TearDown() override {
    setenv("PATH", old_path_.c_str(), 1);
    fs::remove_all(dir_);
  }

  // The modules the stand-in server has loaded now, one a line.
  std::string modules() const { return read_file(dir_ + "/modules"); }
  std::string calls() const { return read_file(dir_ + "/calls"); }

  std::string dir_;
  std::string old_path_;
};

TEST_F(PipeSourceModuleTest, LoadsTheModuleAndUnloadsItAtExit) {
  {
    PipeSourceModule m(dir_ + "/mic.fifo", null_logger());
    ASSERT_TRUE(m.load_now());
    EXPECT_TRUE(m.loaded());
    EXPECT_NE(modules().find("file=" + dir_ + "/mic.fifo"), std::string::npos) << modules();
  }
  EXPECT_EQ(modules(), "") << "voxl's module is unloaded when it goes; calls:\n" << calls();
}

// load() hands the work to the module's thread; a load_now() while that
// runs must wait for it and find its module, not load a second one that
// only one of them remembers (and so leave one loaded at exit).
TEST_F(PipeSourceModuleTest, ALoadAskedForWhileAnotherRunsLoadsOneModule) {
  {
    PipeSourceModule m(dir_ + "/mic.fifo", null_logger());
    m.load(false);
    EXPECT_TRUE(m.load_now());
    EXPECT_TRUE(m.loaded());
  }
  EXPECT_EQ(modules(), "") << "a module voxl loaded was left loaded; calls:\n" << calls();
}

}  // namespace
}  // namespace voxl::platform::pulse
