"""The browser chat (``rag serve``): ``app`` (serve, build_app, handlers), ``layout`` (the page),
``render`` (data → safe Markdown), ``history`` (saved conversations), ``conversations`` (open chats),
``catalog`` (the paper list), ``users`` (logins, each person's folder) and ``evaluation`` (the Evaluation
tab). Only ``app``, ``layout`` and ``evaluation`` import Gradio."""
