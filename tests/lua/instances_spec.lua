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
