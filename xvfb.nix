# Xvfb for nix users: the X.Org virtual framebuffer server (with -shmem,
# MIT-SHM 1.2, DAMAGE, XFIXES and RandR) plus xkbcomp, which it runs at start.
#   nix-build -E 'with import <nixpkgs> {}; callPackage ./xvfb.nix {}'
{ lib, symlinkJoin, xorg }:

symlinkJoin {
  name = "voxl-xvfb";
  paths = [ xorg.xorgserver xorg.xkbcomp xorg.xkeyboardconfig ];
  postBuild = ''
    # Keep only what voxl uses, so the closure stays small on PATH.
    find $out/bin -mindepth 1 ! -name Xvfb ! -name xkbcomp -delete
  '';
  meta = {
    description = "Xvfb for voxl's tests, benchmarks and embedded display";
    license = lib.licenses.mit;
    platforms = lib.platforms.linux;
  };
}
