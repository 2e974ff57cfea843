"""Objects are shared between threads; parsing and checking release the GIL."""

import concurrent.futures as cf

import ptxkit
from conftest import EXAMPLES


def test_parse_and_check_from_many_threads():
    paths = sorted(EXAMPLES.glob("*.ptx"))
    texts = [p.read_text() for p in paths]
    want = [ptxkit.parse(t).to_json() for t in texts]

    def work(k):
        m = ptxkit.parse(texts[k % len(texts)])
        assert m.check() == []
        return m.to_json()

    with cf.ThreadPoolExecutor(8) as ex:
        got = list(ex.map(work, range(4 * len(texts))))
    assert got == [want[k % len(texts)] for k in range(4 * len(texts))]


def test_one_module_shared_by_threads():
    m = ptxkit.parse_file(EXAMPLES / "calls.ptx")

    def work(_):
        return (len(m.check()), tuple(m.callgraph().recursive),
                sum(len(f.instructions) for f in m.functions))

    with cf.ThreadPoolExecutor(8) as ex:
        got = set(ex.map(work, range(32)))
    assert len(got) == 1
