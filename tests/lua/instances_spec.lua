local registry = require('simple_brief.instances')

describe('registry.dir', function()
  local saved_env, saved_uname, saved_home

  before_each(function()
    saved_env = {
      SIMPLE_BRIEF_STATE_DIR = vim.env.SIMPLE_BRIEF_STATE_DIR,
      XDG_STATE_HOME = vim.env.XDG_STATE_HOME,
      LOCALAPPDATA = vim.env.LOCALAPPDATA,
    }
    saved_uname, saved_home = vim.uv.os_uname, vim.uv.os_homedir
    vim.env.SIMPLE_BRIEF_STATE_DIR = nil
    vim.env.XDG_STATE_HOME = nil
    vim.env.LOCALAPPDATA = nil
    vim.uv.os_homedir = function()
      return '/home/ada'
    end
  end)

  after_each(function()
    for k, v in pairs(saved_env) do
      vim.env[k] = v
    end
    vim.uv.os_uname, vim.uv.os_homedir = saved_uname, saved_home
  end)

  local function on(sysname)
    vim.uv.os_uname = function()
      return { sysname = sysname, release = '', version = '', machine = '' }
    end
  end

  it('uses $SIMPLE_BRIEF_STATE_DIR first, on every system', function()
    vim.env.SIMPLE_BRIEF_STATE_DIR = '/tmp/sb-state'
    vim.env.XDG_STATE_HOME = '/xdg/state'
    for _, sysname in ipairs({ 'Linux', 'Darwin', 'Windows_NT' }) do
      on(sysname)
      assert.are.equal('/tmp/sb-state', registry.dir())
    end
  end)

  it('ignores an empty $SIMPLE_BRIEF_STATE_DIR', function()
    on('Linux')
    vim.env.SIMPLE_BRIEF_STATE_DIR = ''
    assert.are.equal('/home/ada/.local/state/simple-brief', registry.dir())
  end)

  it('uses ~/.local/state on Linux and other Unix', function()
    on('Linux')
    assert.are.equal('/home/ada/.local/state/simple-brief', registry.dir())
    on('FreeBSD')
    assert.are.equal('/home/ada/.local/state/simple-brief', registry.dir())
  end)

  it('uses an absolute $XDG_STATE_HOME', function()
    on('Linux')
    vim.env.XDG_STATE_HOME = '/xdg/state/'
    assert.are.equal('/xdg/state/simple-brief', registry.dir())
  end)

  it('ignores a relative $XDG_STATE_HOME, as platformdirs does', function()
    on('Linux')
    vim.env.XDG_STATE_HOME = 'state'
    assert.are.equal('/home/ada/.local/state/simple-brief', registry.dir())
  end)

  it('uses ~/Library/Application Support on macOS', function()
    on('Darwin')
    assert.are.equal('/home/ada/Library/Application Support/simple-brief', registry.dir())
  end)

  it('uses %LOCALAPPDATA% on Windows', function()
    on('Windows_NT')
    vim.env.LOCALAPPDATA = [[C:\Users\ada\AppData\Local]]
    assert.are.equal([[C:\Users\ada\AppData\Local\simple-brief]], registry.dir())
  end)
end)

describe('registry files', function()
  local dir

  before_each(function()
    dir = vim.fn.tempname()
    vim.env.SIMPLE_BRIEF_STATE_DIR = dir
  end)

  after_each(function()
    registry.unregister()
    vim.env.SIMPLE_BRIEF_STATE_DIR = nil
    vim.fn.delete(dir, 'rf')
  end)

  it('names the file after the pid', function()
    assert.are.equal(('%s/instances/%d.json'):format(dir, vim.fn.getpid()), registry.path())
  end)

  it('registers, lists and unregisters this instance', function()
    local path = assert(registry.register())
    local stat = assert(vim.uv.fs_stat(path))
    assert.are.equal(tonumber('600', 8), bit.band(stat.mode, tonumber('777', 8)))
    local entry = vim.json.decode(table.concat(vim.fn.readfile(path), '\n'))
    assert.are.equal(vim.fn.getpid(), entry.pid)
    assert.are.equal(vim.v.servername, entry.servername)
    assert.are.equal(vim.fn.getcwd(), entry.cwd)
    assert.are.equal('0.1.0', entry.version)
    assert.is_true(math.abs(os.time() - entry.started) < 60)
    assert.are.same({ entry }, registry.list())
    registry.unregister()
    assert.is_nil(vim.uv.fs_stat(path))
    assert.are.same({}, registry.list())
  end)

  it('lists nothing when the directory does not exist', function()
    assert.are.same({}, registry.list())
  end)

  it('skips malformed files and dead processes, and prunes dead ones on register', function()
    local instances = dir .. '/instances'
    vim.fn.mkdir(instances, 'p')
    vim.fn.writefile({ 'not json' }, instances .. '/11.json')
    vim.fn.writefile({ vim.json.encode({ pid = 12 }) }, instances .. '/12.json')
    -- A pid far above pid_max: no such process.
    local dead = { servername = '127.0.0.1:1', cwd = '/', pid = 99999999, started = 1, version = '0.1.0' }
    vim.fn.writefile({ vim.json.encode(dead) }, instances .. '/99999999.json')
    assert.are.same({}, registry.list())
    registry.register()
    assert.is_nil(vim.uv.fs_stat(instances .. '/99999999.json'))
    assert.are.equal(1, #registry.list())
  end)
end)

describe('registry last use', function()
  local dir, saved_interval

  local function entry()
    return vim.json.decode(table.concat(vim.fn.readfile(registry.path()), '\n'))
  end

  before_each(function()
    dir = vim.fn.tempname()
    vim.env.SIMPLE_BRIEF_STATE_DIR = dir
    saved_interval = registry.write_interval_ms
  end)

  after_each(function()
    registry.write_interval_ms = saved_interval
    registry.unregister()
    vim.env.SIMPLE_BRIEF_STATE_DIR = nil
    vim.fn.delete(dir, 'rf')
  end)

  it('writes `used` at once on FocusGained and keeps the fields older readers need', function()
    registry.write_interval_ms = 60 * 60 * 1000
    assert(registry.register())
    local before = entry()
    vim.cmd('doautocmd FocusGained')
    local after = entry()
    assert.is_number(after.used)
    assert.is_true(after.used >= before.started)
    assert.is_true(math.abs(after.used - os.time()) < 60)
    for _, key in ipairs({ 'servername', 'cwd', 'pid', 'started', 'version' }) do
      assert.are.same(before[key], after[key])
    end
    assert.is_false(registry.pending())
    registry.unregister()
    registry.touch(true) -- once unregistered, a use writes nothing
    assert.is_nil(vim.uv.fs_stat(registry.path()))
  end)

  it('writes at most once per interval while the person types, then the last use once', function()
    registry.write_interval_ms = 60 * 60 * 1000
    assert(registry.register())
    vim.cmd('doautocmd FocusGained')
    local focused = entry().used
    for _ = 1, 50 do
      vim.cmd('doautocmd CursorMoved')
      vim.cmd('doautocmd TextChangedI')
    end
    assert.are.equal(focused, entry().used) -- no write yet: the one pending write will carry it
    assert.is_true(registry.pending())
    registry.unregister() -- no timer left running
    assert.is_false(registry.pending())

    registry.write_interval_ms = 20
    assert(registry.register())
    vim.cmd('doautocmd FocusGained')
    focused = entry().used
    vim.cmd('doautocmd CursorMoved')
    assert.is_true(registry.pending())
    assert.is_true(vim.wait(5000, function()
      return not registry.pending()
    end, 5))
    assert.is_true(entry().used > focused)
  end)

  it('lists the one used last first, else the newest', function()
    local instances = dir .. '/instances'
    vim.fn.mkdir(instances, 'p')
    -- Two live processes: this one and its parent.
    local parent = vim.uv.os_getppid()
    local me = vim.fn.getpid()
    local function put(pid, started, used)
      local e = { servername = '127.0.0.1:1', cwd = '/', pid = pid, started = started, used = used, version = '0.1.0' }
      vim.fn.writefile({ vim.json.encode(e) }, ('%s/%d.json'):format(instances, pid))
    end
    put(parent, 100, 300)
    put(me, 200, nil)
    assert.are.same(
      { parent, me },
      vim.tbl_map(function(e)
        return e.pid
      end, registry.list())
    )
    put(me, 200, 400)
    assert.are.same(
      { me, parent },
      vim.tbl_map(function(e)
        return e.pid
      end, registry.list())
    )
  end)
end)
