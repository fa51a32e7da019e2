# A package so that tools/lab/grade, mklab and lab-check can import
# tools.lab.checks (the labs' host cases).
