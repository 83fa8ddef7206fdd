// English text for the model-server source (issue 12): connecting, status, and every error with
// what to run to fix it (zh twin: server.zh.ts).
export const serverEn = {
  "source.server": "Model server (llama.cpp / vLLM / Ollama)",
  "server.address": "Server address",
  "server.api": "API",
  "server.api.auto": "Detect",
  "server.api.llama": "llama.cpp (/completion)",
  "server.api.openai": "OpenAI-compatible (/v1/completions)",
  "server.topN": "Candidates per step (vocabularies over 32,000)",
  "server.connect": "Connect",
  "server.note": "The page sends only token ids (or text, for servers without ids) and asks for the next token's probabilities; it chooses every token itself. It connects only when you click Connect.",
  "server.notConnected": "Not connected. Start a server, type its address and click Connect.",
  "server.linkWaiting": "This link uses the model server at {url}. Click Connect to use it; until then the embedded model is shown.",
  "server.connecting": "Connecting to {url}…",
  "server.connected": "Connected: {server} at {url} · model {model} · vocabulary {vocab}",
  "server.lost": "The server at {url} stopped answering. Start it again, then click Step.",
  /** Ends the status line's first sentence (zh: a full-width full stop). */
  "server.headEnd": ". ",
  "server.vocabUnknown": "size not reported",
  "server.exact": "Each step lists every token: the probabilities are exact.",
  "server.topListed": "Each step lists the {n} most likely tokens.",
  "server.noIds": "This server gives no token ids: tokens are matched by their text, and tokens with the same text are merged.",
  "server.waiting": "Waiting for the server… {seconds} s",
  "server.rest": "Rest of the vocabulary (not listed by the server): {p}",
  "server.rest.exact": "Final probabilities are exact: a cut removed every token the server did not list.",
  "server.rest.inexact": "Final probabilities are over the listed tokens only (not exact): the unlisted tokens could have been kept.",
  "server.noAnswer": "The server has not answered for this context yet.",
  "server.failed": "Could not connect: {message}",
  "server.error.bad_address": "“{url}” is not a server address. Type one like http://127.0.0.1:8080.",
  "server.error.blocked_by_page":
    "This page may only connect to servers on this computer (127.0.0.1 or localhost), so it cannot reach {url}. Run the server on this computer, or forward its port: ssh -N -L {port}:127.0.0.1:{port} your-gpu-server, then connect to http://127.0.0.1:{port}.",
  "server.error.no_network":
    "This copy of the page (the offline single file, nexttoken.html) never connects to anything. To use a model server, open nexttoken-server.html from the same folder, or the page served from http://127.0.0.1.",
  "server.error.private_network":
    "This page was served over plain http from the internet ({origin}), and the browser blocks such pages from reaching servers on your computer or network. Open the page over https (the browser then asks for permission), from http://127.0.0.1, or as the downloaded single file.",
  "server.error.refused":
    "Nothing answers at {url}. Start the server first, for example: llama-server -m model.gguf --port {port} (or: ollama serve), and check the address and port.",
  "server.error.cors":
    "The server at {url} is running but refuses this page ({origin}) by its CORS settings. Allow this origin when you start it, for example vLLM: --allowed-origins '[\"*\"]'.",
  "server.error.ollama_origin":
    "The server at {url} refuses pages from {origin} (a page opened from a file sends Origin: null). Ollama does this by default: restart it with OLLAMA_ORIGINS set, for example: OLLAMA_ORIGINS='*' ollama serve",
  "server.error.unauthorized":
    "The server at {url} requires an API key, which this page never sends. Start it without --api-key on a machine only you can reach.",
  "server.error.not_found":
    "{url} answers, but not as a llama.cpp or OpenAI-compatible server ({detail}). Check the address: it should end with the port, with no path.",
  "server.error.too_old":
    "This {server} server returns no next-token log-probabilities ({detail}). Update it, or use a server that returns them: llama.cpp from 2025 on, Ollama 0.12.11 or later (ollama --version), vLLM 0.6 or later.",
  "server.error.http": "The server at {url} answered HTTP {status}: {detail}",
  "server.error.bad_response": "The answer from {url} is not in a shape this page knows: {detail}.",
  "server.error.contradictory_mass":
    "The answer from {url} contradicts itself: the probabilities of the tokens in {field} add up to {sum}, more than 1, which would leave the rest of the vocabulary {rest}. The page takes no step from it; check how the server computes its log-probabilities.",
  "server.error.contradictory_top":
    "The answer from {url} contradicts itself: the most likely token in {field} has probability {p}, less than 1/{vocab}, yet a vocabulary of {vocab} tokens or fewer always has a token at least that likely. The page takes no step from it; check how the server computes its log-probabilities.",
  "server.error.timeout":
    "No answer from {url} in time. A long prompt on a large model can take a while on a CPU: try again, or shorten the prompt.",
  "server.error.loading":
    "The server at {url} is still loading its model, or is busy (HTTP 503: {detail}). Wait until it is ready (llama-server prints “server is listening”), then click Connect again.",
  "server.error.no_model":
    "The server at {url} answers, but has no model loaded. Load one first (Ollama: ollama pull qwen2.5:0.5b; LM Studio: load a model in its Developer tab), then click Connect again.",
  "server.error.cut_off":
    "The server at {url} closed the connection before its answer was complete: it stopped or restarted. Start it again, then click Step (your text is kept).",
  "server.error.too_large":
    "The answer from {url} was more than {detail}, larger than any this page asks for: it was not read. Check that the address is the model server, or lower “Candidates per step”.",
  "server.error.model_changed":
    "The server at {url} now serves another model than the one you connected to ({detail}): its tokens no longer match the ones on the page. Click Connect again to start over with it.",
  "server.error.mixed_content":
    "This page was opened over https, and the browser blocks it from reaching a plain-http server ({url}) that is not on this computer. Run the server on this computer and connect to http://127.0.0.1:{port} (or forward its port: ssh -N -L {port}:127.0.0.1:{port} your-gpu-server), or serve the model over https.",
  "server.cancel": "Cancel",
  "server.cancelLabel": "Cancel the request to the server",
  "server.stepFailed": "The server at {url} answers, but its last answer could not be used: the message at the top of the page says why.",
  "server.error.cancelled": "Cancelled: the server at {url} had not answered after {detail} s. Click Step to ask again, or check the server (a large model on a CPU can take minutes for a long prompt).",
  "server.fewerListed": "This step lists the {n} most likely tokens, fewer than the whole vocabulary it was asked for: the rest is shown below.",
  "server.error.logprobs_off":
    "The server at {url} refuses to return log-probabilities ({detail}). Start it with them allowed, for example vLLM: --max-logprobs 20 (or -1 for no limit), then click Connect again.",
  "server.error.connect_timeout":
    "No answer from {url} within {detail} s to the page's first question (GET /v1/models). Check that a model server runs at that address and has finished starting, then click Connect again.",
};
