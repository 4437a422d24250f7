/**
 * The selection (selection.ts) as the runners read it: the selected tests' names as one anchored pattern,
 * and their files (absolute) when every one names its file. Without a selection file, null: nothing narrows.
 */
export const SELECT_PART = `    var SELECTED = (function () {
      try {
        var v = JSON.parse(fs.readFileSync(SELECT, 'utf8'));
        return v && Array.isArray(v.tests) && v.tests.length ? v : null;
      } catch (e) { return null; }
    })();
    var reLit = function (s) { return String(s).replace(/[.*+?^$|{}()[\\]\\\\/]/g, '\\\\$&'); };
    var selectedNames = function () {
      return SELECTED ? '^(?:' + SELECTED.tests.map(function (t) { return reLit(t.name); }).join('|') + ')$' : null;
    };
    var selectedFiles = function () {
      if (!SELECTED || SELECTED.tests.some(function (t) { return !t.file; })) return null;
      var seen = {};
      var real = function (f) { try { return fs.realpathSync(f); } catch (e) { return f; } };
      return SELECTED.tests.map(function (t) { return real(path.resolve(SELECTED.root || '.', t.file)); })
        .filter(function (f) { return seen[f] ? false : (seen[f] = true); });
    };

`;
