'''Text statistics: tokenizing, counting and a summary report.'''
