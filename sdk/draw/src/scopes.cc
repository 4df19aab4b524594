// Name scopes of a drawing (scopes.h).
#include "scopes.h"

#include <map>

namespace nnbridge::draw_detail {

std::vector<std::string> scope_path(std::string_view name) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= name.size()) {
    const std::size_t slash = name.find('/', start);
    const std::size_t end = slash == std::string_view::npos ? name.size() : slash;
    if (end > start) parts.emplace_back(name.substr(start, end - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  // The last part names the node itself.
  if (!parts.empty()) parts.pop_back();
  return parts;
}

ScopeTree scope_tree(const Graph& g, long max_depth) {
  ScopeTree t;
  t.node_scope.assign(g.nodes.size(), kNoScope);
  if (max_depth == 0) return t;
  // Paths cut to max_depth, and how many nodes each prefix holds (the key: parts joined by '/',
  // which no part contains).
  std::vector<std::vector<std::string>> paths(g.nodes.size());
  std::map<std::string, std::size_t, std::less<>> count;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    paths[i] = scope_path(g.nodes[i].name);
    if (max_depth > 0 && paths[i].size() > static_cast<std::size_t>(max_depth)) paths[i].resize(static_cast<std::size_t>(max_depth));
    std::string key;
    for (const std::string& p : paths[i]) {
      key += "/" + p;
      ++count[key];
    }
  }
  // A prefix of two or more nodes is a box; its own prefixes hold at least as many, so they are
  // boxes too and the boxes nest.
  std::map<std::string, std::size_t, std::less<>> index;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    std::string key;
    std::size_t parent = kNoScope;
    for (std::size_t d = 0; d < paths[i].size(); ++d) {
      key += "/" + paths[i][d];
      const std::size_t n = count[key];
      if (n < 2) break;
      auto [it, added] = index.emplace(key, t.scopes.size());
      if (added) t.scopes.push_back(Scope{paths[i][d], parent, d + 1, n});
      parent = it->second;
    }
    t.node_scope[i] = parent;
  }
  return t;
}

}  // namespace nnbridge::draw_detail
