#include "platform/x11/sysv_shm_table.h"

#include <gtest/gtest.h>

#include <string>

namespace voxl::platform::x11 {
namespace VOXL_TEST_FILE {

const char* const kHeader =
    "       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid"
    "      atime      dtime      ctime                   rss                  swap\n";

// Rows as the kernel prints them: key, shmid, perms (octal), size, cpid, lpid,
// nattch, uid, gid, cuid, cgid, atime, dtime, ctime, rss, swap.
const char* const kRows =
    "         0          5  1600                524288  2203  2210      2  1000  1000  1000  1000"
    " 1717000000 1717000100 1716999999                524288                     0\n"
    "1358954505      32778  1777               8298664  4121  4121      1     0     0     0     0"
    " 1717000200          0 1717000200               8298496                     0\n"
    "-559038737      98316   600                  4096   777   801      0  1000  1000  1000  1000"
    "          0 1717000300 1717000250                     0                     0\n";

TEST(SysvShmTable, ParsesKernelTable) {
  const auto segs = parse_sysv_shm_table(std::string(kHeader) + kRows);
  ASSERT_EQ(segs.size(), 3u);

  EXPECT_EQ(segs[0].key, 0);
  EXPECT_EQ(segs[0].shmid, 5);
  EXPECT_EQ(segs[0].size, 524288u);
  EXPECT_EQ(segs[0].creator_pid, 2203);
  EXPECT_EQ(segs[0].attachments, 2);

  EXPECT_EQ(segs[1].key, 1358954505);
  EXPECT_EQ(segs[1].shmid, 32778);
  EXPECT_EQ(segs[1].size, 8298664u);
  EXPECT_EQ(segs[1].creator_pid, 4121);
  EXPECT_EQ(segs[1].attachments, 1);

  EXPECT_EQ(segs[2].key, -559038737);  // keys are printed as signed ints
  EXPECT_EQ(segs[2].shmid, 98316);
  EXPECT_EQ(segs[2].size, 4096u);
  EXPECT_EQ(segs[2].creator_pid, 777);
  EXPECT_EQ(segs[2].attachments, 0);
}

TEST(SysvShmTable, HeaderOnlyGivesNoSegments) {
  EXPECT_TRUE(parse_sysv_shm_table(kHeader).empty());
}

TEST(SysvShmTable, EmptyInputGivesNoSegments) {
  EXPECT_TRUE(parse_sysv_shm_table("").empty());
  EXPECT_TRUE(parse_sysv_shm_table("\n\n   \n").empty());
}

TEST(SysvShmTable, LastRowWithoutNewlineIsParsed) {
  const std::string text = std::string(kHeader) +
                           "         0         42  1600  65536  10  10  3  0  0  0  0  0  0  0  0  0";
  const auto segs = parse_sysv_shm_table(text);
  ASSERT_EQ(segs.size(), 1u);
  EXPECT_EQ(segs[0].shmid, 42);
  EXPECT_EQ(segs[0].size, 65536u);
  EXPECT_EQ(segs[0].attachments, 3);
}

TEST(SysvShmTable, ColumnsAreFoundByHeaderName) {
  const std::string text =
      "nattch size cpid extra shmid key\n"
      "4 1000 55 whatever 7 -1\n"
      "0 2000000 66 x 8 12345\n";
  const auto segs = parse_sysv_shm_table(text);
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(segs[0].attachments, 4);
  EXPECT_EQ(segs[0].size, 1000u);
  EXPECT_EQ(segs[0].creator_pid, 55);
  EXPECT_EQ(segs[0].shmid, 7);
  EXPECT_EQ(segs[0].key, -1);
  EXPECT_EQ(segs[1].attachments, 0);
  EXPECT_EQ(segs[1].size, 2000000u);
  EXPECT_EQ(segs[1].creator_pid, 66);
  EXPECT_EQ(segs[1].shmid, 8);
  EXPECT_EQ(segs[1].key, 12345);
}

TEST(SysvShmTable, TabsSeparateColumnsToo) {
  const auto segs = parse_sysv_shm_table("key\tshmid\tsize\tcpid\tnattch\n1\t2\t3\t4\t5\n");
  ASSERT_EQ(segs.size(), 1u);
  EXPECT_EQ(segs[0].key, 1);
  EXPECT_EQ(segs[0].shmid, 2);
  EXPECT_EQ(segs[0].size, 3u);
  EXPECT_EQ(segs[0].creator_pid, 4);
  EXPECT_EQ(segs[0].attachments, 5);
}

TEST(SysvShmTable, MalformedRowsAreSkipped) {
  const std::string text = std::string(kHeader) +
      "garbage\n"
      "         0          1  1600\n"  // too few columns
      "         0        abc  1600  4096  10  10  1  0  0  0  0  0  0  0  0  0\n"  // bad shmid
      "         0          2  1600  -4096  10  10  1  0  0  0  0  0  0  0  0  0\n"  // negative size
      "         0          3  1600  4k  10  10  1  0  0  0  0  0  0  0  0  0\n"  // suffix
      "         0          4  1600  4096  10  10  1x  0  0  0  0  0  0  0  0  0\n"  // bad nattch
      "         0 9999999999  1600  4096  10  10  1  0  0  0  0  0  0  0  0  0\n"  // shmid overflows int
      "         0          6  1600  4096  10  10  1  0  0  0  0  0  0  0  0  0\n"  // good
      "\n" + kRows;
  const auto segs = parse_sysv_shm_table(text);
  ASSERT_EQ(segs.size(), 4u);
  EXPECT_EQ(segs[0].shmid, 6);
  EXPECT_EQ(segs[0].size, 4096u);
  EXPECT_EQ(segs[1].shmid, 5);
  EXPECT_EQ(segs[2].shmid, 32778);
  EXPECT_EQ(segs[3].shmid, 98316);
}

TEST(SysvShmTable, HeaderMissingAColumnGivesNoSegments) {
  const std::string text =
      "       key      shmid perms                  size  lpid nattch\n"
      "         0          5  1600                524288  2210      2\n";
  EXPECT_TRUE(parse_sysv_shm_table(text).empty());
}

TEST(SysvShmTable, LeadingBlankLinesBeforeTheHeaderAreIgnored) {
  const auto segs = parse_sysv_shm_table(std::string("\n  \n") + kHeader + kRows);
  EXPECT_EQ(segs.size(), 3u);
}

}  // namespace
}  // namespace voxl::platform::x11
