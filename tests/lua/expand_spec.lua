local expand = require('simple_brief.expand')

--- A hand-made flattened symbol list, in document order, as expand.symbols() returns it.
local function sym(qualified, start, stop, block)
  return {
    name = qualified:match('([^.]+)$'),
    qualified = qualified,
    start = start,
    stop = stop,
    sel = start,
    block = block ~= false,
  }
end

local symbols = {
  sym('Outer', 1, 20),
  sym('Outer.LIMIT', 2, 2, false),
  sym('Outer.method', 3, 8),
  sym('Outer.method.inner', 5, 7),
  sym('Outer.helper', 10, 15),
  sym('Other', 22, 30),
  sym('Other.method', 24, 28),
  sym('run', 32, 35),
}

describe('expand.find', function()
  it('finds a symbol by its unique name', function()
    local s = expand.find(symbols, 'helper', 1)
    assert.are.equal('Outer.helper', s.qualified)
  end)

  it('finds a symbol by Class.method', function()
    assert.are.equal('Other.method', expand.find(symbols, 'Other.method', 1).qualified)
    assert.are.equal('Outer.method', expand.find(symbols, 'Outer.method', 1).qualified)
  end)

  it('finds a symbol by the tail of its dotted path', function()
    assert.are.equal('Outer.method.inner', expand.find(symbols, 'method.inner', 1).qualified)
    assert.are.equal('Outer.method.inner', expand.find(symbols, 'inner', 1).qualified)
  end)

  it('finds a top-level symbol by name', function()
    assert.are.equal('run', expand.find(symbols, 'run', 1).qualified)
  end)

  it('finds the innermost definition containing line:N', function()
    assert.are.equal('Outer.method.inner', expand.find(symbols, 'line:6', 1).qualified)
    assert.are.equal('Outer.method', expand.find(symbols, 'line:3', 1).qualified)
    assert.are.equal('Outer.helper', expand.find(symbols, 'line:15', 1).qualified)
  end)

  it('names a one-line symbol by the line it starts on, the definition around other lines', function()
    assert.are.equal('Outer.LIMIT', expand.find(symbols, 'line:2', 1).qualified)
    assert.are.equal('Outer', expand.find(symbols, 'line:9', 1).qualified)
  end)

  it('names by line:N the symbol whose name is on line N when several start together', function()
    -- `__u64 mem_op:5,\n mem_lvl:14,\n mem_snoop:5;`: three fields, one declaration (one start).
    local field = function(name, sel)
      local s = sym('bits.' .. name, 40, 42, false)
      s.sel = sel
      return s
    end
    local fields = { sym('bits', 39, 43), field('mem_op', 40), field('mem_lvl', 41), field('mem_snoop', 42) }
    assert.are.equal('bits.mem_lvl', expand.find(fields, 'line:41', 1).qualified)
    assert.are.equal('bits.mem_op', expand.find(fields, 'line:40', 1).qualified)
    assert.are.equal('bits', expand.find(fields, nil, 41).qualified)
  end)

  it('skips one-line symbols that are not blocks for the cursor line', function()
    assert.are.equal('Outer', expand.find(symbols, nil, 2).qualified)
  end)

  it('uses the cursor line when no selector is given', function()
    assert.are.equal('Other.method', expand.find(symbols, nil, 25).qualified)
    assert.are.equal('Other', expand.find(symbols, nil, 29).qualified)
  end)

  it('says why when no definition contains the line', function()
    local s, why = expand.find(symbols, 'line:21', 1)
    assert.is_nil(s)
    assert.are.equal('no definition contains line 21', why)
    s, why = expand.find(symbols, nil, 40)
    assert.is_nil(s)
    assert.are.equal('no definition contains line 40', why)
  end)

  it('prefers a full name over a method of the same name', function()
    local symbols = {
      { name = 'Job', qualified = 'Job', start = 1, stop = 3, sel = 1, block = true },
      { name = 'run', qualified = 'Job.run', start = 2, stop = 3, sel = 2, block = true },
      { name = 'run', qualified = 'run', start = 6, stop = 7, sel = 6, block = true },
    }
    local sym = expand.find(symbols, 'run', 1)
    assert.are.equal('run', sym.qualified)
    assert.are.equal(6, sym.start)
  end)

  it('lists every match of an ambiguous name', function()
    local s, why = expand.find(symbols, 'method', 1)
    assert.is_nil(s)
    assert.are.equal('method names 2 symbols: Outer.method (line:3), Other.method (line:24); ask for one of those', why)
  end)

  it('lists an ambiguous name at its name line, not its doc comment', function()
    local documented = {
      { name = 'Searcher', qualified = 'Searcher', start = 589, stop = 620, sel = 597, block = true },
      { name = 'Searcher', qualified = 'Searcher', start = 622, stop = 640, sel = 623, block = true },
    }
    local _, why = expand.find(documented, 'Searcher', 1)
    assert.are.equal('Searcher names 2 symbols: Searcher (line:597), Searcher (line:623); ask for one of those', why)
  end)

  it('says how to list the names of an unknown symbol', function()
    local s, why = expand.find(symbols, 'missing', 1)
    assert.is_nil(s)
    assert.are.equal('no symbol missing here; press <Tab> after :ExpandAt for the names', why)
  end)

  it('does not match a partial name', function()
    assert.is_nil((expand.find(symbols, 'help', 1)))
    assert.is_nil((expand.find(symbols, 'ter.method', 1)))
  end)

  it('treats a malformed line selector as a name', function()
    local s, why = expand.find(symbols, 'line:x', 1)
    assert.is_nil(s)
    assert.truthy(why:find('no symbol line:x here', 1, true))
  end)

  it('finds nothing in an empty symbol list', function()
    local s, why = expand.find({}, 'run', 1)
    assert.is_nil(s)
    assert.truthy(why:find('no symbol run', 1, true))
  end)
end)
