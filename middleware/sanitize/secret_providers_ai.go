package sanitize

// Token formats of AI and data platforms, from the providers'
// documentation:
//
//   - OpenAI: "sk-" keys, also "sk-proj-", "sk-svcacct-", "sk-admin-";
//     mixed case and digits;
//   - Anthropic: "sk-ant-api03-", "sk-ant-admin01-" keys;
//   - Google API keys (Gemini, Maps, Firebase): "AIza" and 35 bytes;
//   - Hugging Face: "hf_" user tokens and "api_org_" organization tokens,
//     34 letters;
//   - Perplexity "pplx-" and 48; Groq "gsk_" and 52; Replicate "r8_" and
//     37; xAI "xai-" and 80; LangSmith "lsv2_pt_" and "lsv2_sk_";
//     Pinecone "pcsk_";
//   - Databricks personal access tokens: "dapi" and 32 hex digits;
//   - Private AI has no token format; its keys are found by key name.
func aiTokens() []tokenFamily {
	return []tokenFamily{
		fam("anthropic-key", pre("sk-ant-"), atLeast(alphaURL, 20)),
		fam("openai-key", pre("sk-"), atLeast(alphaURL, 20)).mixedCase(),
		fam("google-api-key", pre("AIza"), fixed(alphaURL, 35)),
		fam("huggingface-token", pre("hf_"), fixed(alphaAlnum, 34)).mixedCase(),
		fam("huggingface-token", pre("api_org_"), fixed(alphaAlnum, 34)).mixedCase(),
		fam("perplexity-key", pre("pplx-"), fixed(alphaAlnum, 48)),
		fam("groq-key", pre("gsk_"), fixed(alphaAlnum, 52)),
		fam("replicate-token", pre("r8_"), fixed(alphaAlnum, 37)),
		fam("xai-key", pre("xai-"), fixed(alphaAlnum, 80)),
		fam("langsmith-key", pre("lsv2_pt_", "lsv2_sk_"), atLeast(alphaWord, 32)),
		fam("pinecone-key", pre("pcsk_"), atLeast(alphaWord, 40)),
		fam("databricks-token", pre("dapi"), fixed(alphaLowerHex, 32)),
	}
}
