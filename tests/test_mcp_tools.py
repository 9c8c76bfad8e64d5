"`mcp_tools` against `fncall serve`, started by the test: return annotations from outputSchema, title and annotations kept, progress, timeouts"
import time, typing
import anyio, pytest
from fncall.mcp import mcp_tools
from fncall.schema import get_schema
from mcp_serve import stdio_session, http_server, http_session

def run(body, *args):
    async def main():
        async with stdio_session('mcp_typed', '--timeout', '20', *args) as s: return await body(s)
    return anyio.run(main)

def test_return_annotations_and_info():
    async def body(s):
        fs = {f.__name__: f for f in await mcp_tools(s)}
        add, movie, flip, untyped = fs['add'], fs['movie'], fs['flip'], fs['untyped']
        ret = add.__annotations__['return']
        assert ret is int  # the SDK's wrapper of a bare value, {'result': ...}, unwrapped
        assert fs['evens'].__annotations__['return'] == list[int] and fs['stats'].__annotations__['return'] == dict[str, float]
        assert typing.get_type_hints(movie.__annotations__['return']) == {'title': str, 'year': int}
        assert set(typing.get_type_hints(flip.__annotations__['return'])) == {'x', 'y'}
        assert 'return' not in untyped.__annotations__
        assert get_schema(add)['input_schema']['properties']['a']['type'] == 'integer'
        assert add.__mcp_info__ == {'title': 'Add numbers', 'annotations': {'readOnlyHint': True, 'idempotentHint': True, 'openWorldHint': False}}
        assert fs['ratio'].__mcp_info__ == {'title': None, 'annotations': None}
        assert await add(2) == 3 and await add(2, 5) == 7 and await fs['evens'](5) == [0, 2, 4] and await fs['nothing']() is None
        assert await flip(1, 2) == {'x': 2.0, 'y': 1.0} and await movie('X', 1999) == {'title': 'X', 'year': 1999}
        return True
    assert run(body)

def test_served_again():
    "Functions made by mcp_tools, served again, list the same title, annotations and output schema"
    from fncall.mcp import mcp_server
    async def body(s):
        fs = await mcp_tools(s)
        listed = {t.name: t for t in (await s.list_tools()).tools}
        srv = mcp_server([f for f in fs if f.__name__ in ('add', 'shout')])
        from mcp.client.client import Client
        async with Client(srv) as c: relisted = {t.name: t for t in (await c.list_tools()).tools}
        for nm in ('add', 'shout'): assert (relisted[nm].title, relisted[nm].annotations) == (listed[nm].title, listed[nm].annotations), nm
        return True
    assert run(body, '--no-python')

def test_progress_callback():
    async def body(s):
        got, sync_got = [], []
        async def cb(p, total, msg): got.append(p)
        py = {f.__name__: f for f in await mcp_tools(s, progress=lambda p, t, m: sync_got.append(p))}['python']
        assert await py.options(progress=cb)('import time\ntime.sleep(2.3)\n1') == '1'
        assert got and not sync_got  # the per-call callback replaces the default
        assert await py('import time\ntime.sleep(1.3)\n2') == '2'
        assert sync_got  # a sync callback works too
        return True
    assert run(body)

def test_per_call_timeout():
    async def body(s):
        py = {f.__name__: f for f in await mcp_tools(s)}['python']
        t0 = time.monotonic()
        with pytest.raises(TimeoutError, match="'python' did not answer within 1 s"): await py.options(timeout=1)('import time\ntime.sleep(60)')
        assert time.monotonic() - t0 < 1*3 + 10  # the timeout fired, long before the code would have ended
        assert await py('6*7') == '42'  # the server stopped the code: the next call runs
        return True
    assert run(body)

def test_default_timeout_over_http():
    async def go(url):
        async with http_session(url) as s:
            py = {f.__name__: f for f in await mcp_tools(s, timeout=1)}['python']
            with pytest.raises(TimeoutError): await py('import time\ntime.sleep(8)')
            assert await py.options(timeout=30)('1+1') == '2'
    with http_server('--timeout', '20') as url: anyio.run(go, url)

# ---- content other than text, and paged tool lists, from a server built with the SDK's low-level `Server` ----
def _media_server(cursors):
    "A server whose tool list comes in pages, each page's next cursor the next of `cursors`; its tools return an image"
    import mcp_types as types
    from mcp.server.lowlevel import Server
    async def list_tools(ctx, params):
        i = int(params.cursor) if params and params.cursor else 0
        nxt = cursors[i] if i < len(cursors) else None
        return types.ListToolsResult(tools=[types.Tool(name=f'snap{i}', description='Screenshot', inputSchema={'type': 'object', 'properties': {}})], nextCursor=nxt)
    async def call_tool(ctx, params):
        if params.name == 'snap0': return types.CallToolResult(content=[types.ImageContent(type='image', data='iVBORw0KGgo=', mimeType='image/png')])
        return types.CallToolResult(content=[types.TextContent(type='text', text='no screen'), types.AudioContent(type='audio', data='UklG', mimeType='audio/wav')], isError=True)
    return Server('media', on_list_tools=list_tools, on_call_tool=call_tool)

def _media(cursors):
    "(tool names, the image tool's result, the failing tool's error) over the SDK's in-memory transport; the error text if listing fails"
    from mcp.client.session import ClientSession
    from mcp.shared.memory import create_client_server_memory_streams
    async def main():
        srv = _media_server(cursors)
        async with create_client_server_memory_streams() as (client, server), anyio.create_task_group() as tg:
            tg.start_soon(lambda: srv.run(*server, srv.create_initialization_options()))
            try:
                async with ClientSession(*client) as session:
                    await session.initialize()
                    try: tools = await mcp_tools(session)
                    except RuntimeError as e: return str(e)
                    try: await tools[1]()
                    except RuntimeError as e: err = str(e)
                    return [t.__name__ for t in tools], await tools[0](), err
            finally: tg.cancel_scope.cancel()
    return anyio.run(main)

def test_images_and_pages():
    "An image comes back whole, as MCP writes it; an error's non-text parts are named; the tool list is read page by page"
    names, img, err = _media(['1', '2'])
    assert names == ['snap0', 'snap1', 'snap2']
    assert img == [{'type': 'image', 'data': 'iVBORw0KGgo=', 'mimeType': 'image/png'}]
    assert err == 'no screen\n[audio content, audio/wav]'

def test_repeated_cursor():
    "A server repeating its cursor is an error, rather than an endless listing"
    assert _media(['1', '1']) == "The MCP server gave the tool list cursor '1' twice: its listing would never end"
