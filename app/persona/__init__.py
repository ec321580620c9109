"""Synthetic personas in the spirit of PerQA (ReQAP paper, Section 4): biographies, canonical events over
four years, the events rendered into real export formats, and questions with gold answers and trees.

    from app.persona.generate import generate_persona
    result = generate_persona("p13", out_dir)      # writes the exports and canonical/*.jsonl
"""
