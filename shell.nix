# Everything voxl needs to build, test and benchmark, for nix users; the same
# list scripts/setup installs on Debian.
{ pkgs ? import <nixpkgs> { } }:

pkgs.mkShell {
  nativeBuildInputs = with pkgs; [
    gcc12 cmake ninja ccache pkg-config git
    nodejs_20
    clang_14 llvmPackages_14.compiler-rt  # the fuzz preset (libFuzzer, ASan, UBSan)
    pkgsCross.mingwW64.buildPackages.gcc  # the windows-cross preset
    wine64                                # runs its tests
  ];
  buildInputs = with pkgs; [
    xorg.libxcb
    spdlog fmt_9 cli11 gtest
  ];
  packages = [
    (pkgs.callPackage ./xvfb.nix { })
    pkgs.xorg.xrandr pkgs.xorg.xdpyinfo pkgs.xorg.xwininfo
  ];
}
